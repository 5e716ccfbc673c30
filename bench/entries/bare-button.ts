// The floor for click timing: a Lit button that navigates on click, with nothing in between.
import { html, LitElement } from 'lit';

class BareButton extends LitElement {
  override render() {
    return html`<button
      @click=${() => this.dispatchEvent(new Event('bare-navigate', { bubbles: true, composed: true }))}
    >
      Go
    </button>`;
  }
}
customElements.define('bare-button', BareButton);
