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
    <script type="module">import '/src/pay-button/define.ts'; import '/src/connect/define.ts';</script>${markup}`;
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
