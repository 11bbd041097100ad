// End-to-end check of the solfec viewer page in headless Chromium (driven by
// tests/python/test_viewer.py): prints one JSON line with what the page showed.
// Usage: node e2e.mjs URL OUT_DIR   (env: VIEWER_DIR = viewer/ with node_modules, CHROMIUM)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, openPage } from './browser.mjs';

const [url, outDir] = process.argv.slice(2);
const browser = await launchBrowser();
const out = { errors: [] };
try {
  const page = await openPage(browser, out.errors);
  page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => window.solfecViewer && window.solfecViewer.state.ready, null, { timeout: 60000 });
  const v = 'window.solfecViewer';
  out.nframes = await page.evaluate(`${v}.state.nframes`);
  out.bodies = await page.evaluate(`${v}.bodyCount()`);
  out.models = await page.evaluate(`${v}.state.models.length`);
  out.meshes = await page.evaluate(`${v}.meshes()`);
  out.lod = await page.evaluate(`${v}.compareLod(1000)`);  // every convex body an impostor
  out.meshLod = await page.evaluate(`${v}.compareLod(0)`);  // no impostors (spheres as meshes)
  const pick = await page.evaluate(`${v}.visibleBody()`);
  out.pick = pick;
  out.before = await page.evaluate(`[${v}.state.index, ${v}.bodyPosition(${pick ? pick.id : 1})]`);
  // move the slider as a user would: set its value and fire 'input'
  const last = out.nframes - 1;
  await page.evaluate((n) => {
    const s = document.getElementById('slider');
    s.value = n;
    s.dispatchEvent(new Event('input'));
  }, last);
  await page.waitForFunction((n) => window.solfecViewer.state.index === n && !window.solfecViewer.state.loading, last, { timeout: 60000 });
  out.after = await page.evaluate(`[${v}.state.index, ${v}.bodyPosition(${pick ? pick.id : 1})]`);
  out.clock = await page.textContent('#clock');
  // pick: click the body found at frame 0 again at its new place
  const pick2 = await page.evaluate(`${v}.visibleBody()`);
  out.pick2 = pick2;
  if (pick2) {
    await page.mouse.click(pick2.x, pick2.y);
    await page.waitForSelector('#info:not([hidden])', { timeout: 30000 });
    out.info = await page.textContent('#info');
    await page.check('#history');  // HISTORY panel of the picked body
    await page.waitForSelector('#plot:not([hidden])', { timeout: 60000 });
    out.plot = true;
    await page.screenshot({ path: path.join(outDir, 'viewer-page.png') });  // the whole page
  }
  out.stats = await page.evaluate(`${v}.imageStats()`);
  const png = await page.evaluate(`${v}.screenshot()`);
  writeFileSync(path.join(outDir, 'viewer-screenshot.png'), Buffer.from(png.split(',')[1], 'base64'));
  out.fps = await page.evaluate(`${v}.measureFps(1000)`);
} catch (e) {
  out.errors.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
