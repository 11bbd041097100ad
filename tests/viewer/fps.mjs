// Frame rates of the solfec viewer page in headless Chromium, printed as one JSON line
// (tests/python/test_viewer.py, slow part). Usage: node fps.mjs URL
//   play: the render loop while playing (every drawn frame shows new body placements), frames
//         per second and the browser's CPU time per drawn frame (all its processes and threads)
//   render_fps: redraws of one frame per second (the view orbiting); step_fps: frames stepped
//         through with goto(), as the play button does, each followed by its redraw
import { browserCpuMs, launchBrowser, openPage } from './browser.mjs';

const [url] = process.argv.slice(2);
const perFrame = (a, b, n) => Object.fromEntries(Object.keys(a).map((k) => [k, Math.round((b[k] - a[k]) / n * 10) / 10]));
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
  out.profile = await page.evaluate('window.solfecViewer.profile(3)');
  await page.evaluate('window.solfecViewer.measurePlayFps(500)');  // frames fetched, decoded
  const cpu0 = browserCpuMs();
  out.play = await page.evaluate('window.solfecViewer.measurePlayFps(4000)');
  out.play.cpu_ms_per_frame = perFrame(cpu0, browserCpuMs(), out.play.frames);
  const cpu1 = browserCpuMs();
  out.render_fps = await page.evaluate('window.solfecViewer.measureFps(3000)');
  out.render_cpu_ms_per_frame = perFrame(cpu1, browserCpuMs(), 3 * out.render_fps);
  out.step_fps = await page.evaluate(async () => {
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
