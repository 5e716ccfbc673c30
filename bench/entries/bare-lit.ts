// The floor: a one-property Lit element, built the same way.
import { html, LitElement } from 'lit';

class BareElement extends LitElement {
  static override properties = { name: {} };
  declare name: string;
  override render() {
    return html`<p>Hello ${this.name}</p>`;
  }
}
customElements.define('bare-element', BareElement);
