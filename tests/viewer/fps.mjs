// Render-loop and playback rate of the solfec viewer page in headless Chromium (printed as one
// JSON line; tests/python/test_viewer.py, slow part). Usage: node fps.mjs URL
import { launchBrowser, openPage } from './browser.mjs';

const [url] = process.argv.slice(2);
const browser = await launchBrowser();
const out = { errors: [] };
try {
  const page = await openPage(browser, out.errors);
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.solfecViewer && window.solfecViewer.state.ready, null, { timeout: 120000 });
  out.load_seconds = (Date.now() - t0) / 1000;
  out.bodies = await page.evaluate('window.solfecViewer.bodyCount()');
  out.render_ms = await page.evaluate('window.solfecViewer.renderMs(3)');
  out.profile = await page.evaluate('window.solfecViewer.profile ? window.solfecViewer.profile(3) : null');
  out.render_fps = await page.evaluate('window.solfecViewer.measureFps(3000)');
  // playback: frames shown and drawn per second, stepping through the frames twice (the second
  // pass from the page's frame cache) as the play button does, each followed by its redraw
  out.play_fps = await page.evaluate(async () => {
    const v = window.solfecViewer, n = v.state.nframes, t = performance.now();
    const drawn = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    for (let k = 1; k <= 2 * n; k++) { await v.goto(k % n); await drawn(); }
    return 2 * n * 1000 / (performance.now() - t);
  });
} catch (e) {
  out.errors.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
