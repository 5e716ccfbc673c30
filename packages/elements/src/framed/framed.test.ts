/**
 * A button inside a frame, as the development build tells the developer: the element's modules are loaded afresh in
 * a same-origin iframe (its own realm, whose `top` is this page), so that the button is framed as on a site
 * builder's page. What a click does in a frame (the top window, a new tab, the shopper told) is walked end to end,
 * with parents of the same and of another origin, in test/e2e/framed-pages.test.ts.
 */
import { expect } from '@open-wc/testing';
import { consoleDuring } from '../../test-support/backend-client.js';

/**
 * Loads `markup` (with the elements) in an iframe sandboxed as `sandbox` (none when `undefined`) and resolves with
 * what the frame's console was told within a moment of the elements defining themselves.
 */
async function warningsInFrame(markup: string, sandbox?: string): Promise<string[]> {
  const frame = document.createElement('iframe');
  if (sandbox !== undefined) frame.setAttribute('sandbox', sandbox);
  // The frame's console is watched from its first script, before the elements' modules run.
  frame.srcdoc = `<!doctype html><script>window.warnings = []; console.warn = (words) => warnings.push(String(words));</script>
    <script type="module">import '/src/pay-button/define.ts'; import '/src/connect-button/define.ts';</script>${markup}`;
  document.body.append(frame);
  try {
    const inner = () => frame.contentWindow as (Window & { warnings?: string[] }) | null;
    const deadline = Date.now() + 5_000;
    while (!inner()?.customElements.get('paykit-connect-button') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 100));
    return [...(inner()?.warnings ?? [])];
  } finally {
    frame.remove();
  }
}

const PAY = '<paykit-pay-button endpoint="/paykit" checkout-origins="https://checkout.example">Pay</paykit-pay-button>';

describe('the development build, for a button inside a frame', () => {
  it('says that the click takes the top window there, and what a sandboxed iframe needs', async () => {
    const warnings = (await warningsInFrame(PAY)).filter((line) => line.includes('inside a frame'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.include(
      '<paykit-pay-button> is inside a frame: a click takes the top window to the checkout',
    );
    expect(warnings[0]).to.include('allow-top-navigation-by-user-activation');
  });

  it("names the missing sandbox keyword when the frame's sandbox forbids the top window", async () => {
    const [warning] = (await warningsInFrame(PAY, 'allow-scripts allow-same-origin')).filter((line) =>
      line.includes('inside a frame'),
    );
    expect(warning).to.include('has neither allow-top-navigation-by-user-activation nor allow-top-navigation');
    expect(warning).to.include('opens it in a new tab, which needs allow-popups');
  });

  it('says that the drop-in is not used in a frame', async () => {
    const [warning] = (await warningsInFrame(PAY.replace('<paykit-pay-button ', '<paykit-pay-button drop-in '))).filter(
      (line) => line.includes('inside a frame'),
    );
    expect(warning).to.include('Its drop-in is not used in a frame');
  });

  it('warns a connect button of the storage a parent of another site partitions', async () => {
    const [warning] = (
      await warningsInFrame(
        '<paykit-connect-button client-id="app_1" redirect-uri="http://127.0.0.1/cb" scope="payments" dashboard-url="http://127.0.0.1:4010"></paykit-connect-button>',
      )
    ).filter((line) => line.includes('inside a frame'));
    expect(warning).to.include('to the authorization page');
    expect(warning).to.include('partitions');
  });

  it('says nothing on a page of its own', async () => {
    const lines = await consoleDuring(async () => {
      document.body.insertAdjacentHTML('beforeend', PAY);
      await import('../pay-button/define.js');
      await new Promise((resolve) => setTimeout(resolve, 50));
      document.querySelector('paykit-pay-button')?.remove();
    });
    expect(lines.filter((line) => line.includes('inside a frame'))).to.deep.equal([]);
  });
});

// The tab opened by the click itself, before the backend answers, is shown end to end in
// test/e2e/framed-pages.test.ts; here, that only the pay and connect buttons' clicks open one.
describe('a click in a frame whose sandbox forbids the top window (readable: same origin)', () => {
  /** A frame sandboxed without top navigation, its windows opened and closed counted at the browser's API. */
  async function sandboxedFrame(markup: string) {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups');
    frame.srcdoc = `<!doctype html><script>
      window.opened = [];
      const browserOpen = window.open.bind(window);
      // The browser's own window.open, counted: each window it gives is recorded, and closed again by the test.
      window.open = (...args) => { const tab = browserOpen(...args); opened.push(tab); return tab; };
    </script><script type="module">import '/src/pay-button/define.ts';</script>${markup}`;
    document.body.append(frame);
    const inner = () => frame.contentWindow as Window & { opened: (Window | null)[] };
    const deadline = Date.now() + 5_000;
    while (!inner()?.customElements?.get('paykit-pay-button') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    // The framed chunk, fetched as the button joined the page.
    while (
      !inner()
        .performance.getEntriesByType('resource')
        .some((r) => r.name.includes('/framed/framed.ts'))
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    return { frame, inner: inner() };
  }

  it('opens nothing for a button of another paykit element (only the pay and connect buttons)', async () => {
    const { frame, inner } = await sandboxedFrame(
      '<paykit-pay-button endpoint="/paykit" checkout-origins="https://x.example">Buy</paykit-pay-button><paykit-other></paykit-other>',
    );
    try {
      const other = inner.document.querySelector('paykit-other')!;
      other.attachShadow({ mode: 'open' }).innerHTML = '<button part="button">Check again</button>';
      (other.shadowRoot!.querySelector('button') as HTMLButtonElement).click();
      expect(inner.opened).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
