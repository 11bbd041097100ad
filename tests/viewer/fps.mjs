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
  out.render_fps = await page.evaluate('window.solfecViewer.measureFps(3000)');
  // playback: frames shown per second while playing
  out.play_fps = await page.evaluate(async () => {
    const v = window.solfecViewer, f0 = v.state.frames, t = performance.now();
    document.getElementById('play').click();
    await new Promise((ok) => setTimeout(ok, 10000));
    if (v.state.playing) document.getElementById('play').click();
    return (v.state.frames - f0) * 1000 / (performance.now() - t);
  });
} catch (e) {
  out.errors.push(String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
