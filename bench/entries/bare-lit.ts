// The floor: a one-property Lit element, built the same way (a static getter, as paykit's elements: a class field
// would be lowered for Safari 15.4 and measure the helpers, not Lit).
import { html, LitElement } from 'lit';

class BareElement extends LitElement {
  static override get properties() {
    return { name: {} };
  }
  declare name: string;
  override render() {
    return html`<p>Hello ${this.name}</p>`;
  }
}
customElements.define('bare-element', BareElement);
