import { startWebKitDriver, webkitCapabilities } from './src/engines.ts';
import { readFileSync } from 'node:fs';
const busy = () => { const a = readFileSync('/proc/stat','utf8').split('\n')[0].split(/\s+/).slice(1).map(Number); return a[0]+a[1]+a[2]+a[5]+a[6]; };
const d = await startWebKitDriver();
const base = `http://127.0.0.1:${d.port}`;
const call = async (m: string, p: string, b?: unknown) => (await (await fetch(base+p,{method:m,headers:{'content-type':'application/json'},body:b===undefined?undefined:JSON.stringify(b)})).json()).value;
const page = 'data:text/html,<h1>hi</h1><p>text</p>';
{ const { sessionId } = await call('POST','/session',{capabilities:{alwaysMatch:webkitCapabilities()}}); await call('DELETE',`/session/${sessionId}`); }
let b0 = busy(), t0 = Date.now();
for (let i=0;i<10;i++){ const { sessionId } = await call('POST','/session',{capabilities:{alwaysMatch:webkitCapabilities()}}); await call('POST',`/session/${sessionId}/url`,{url:page}); await call('DELETE',`/session/${sessionId}`); }
console.log(process.env.LABEL, '10 sessions:', ((busy()-b0)/100).toFixed(1),'CPU-s', Date.now()-t0,'ms');
await d.stop();
