// Headless Chromium for the viewer's browser checks (e2e.mjs, fps.mjs): playwright-core from
// viewer/node_modules (env VIEWER_DIR) driving Debian's chromium (env CHROMIUM) with software
// WebGL, and a 900 x 640 page that records page errors in `errors`.
import { createRequire } from 'node:module';
import path from 'node:path';

export async function launchBrowser() {
  const require = createRequire(path.join(process.env.VIEWER_DIR, 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking',
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-gpu-sandbox'],
  });
}

export async function openPage(browser, errors) {
  const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  return page;
}
