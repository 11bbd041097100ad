// Headless Chromium for the viewer's browser checks (e2e.mjs, fps.mjs): playwright-core from
// viewer/node_modules (env VIEWER_DIR) driving Debian's chromium (env CHROMIUM) with software
// WebGL, and a 900 x 640 page that records page errors in `errors`.
//
// Software GL: Mesa's llvmpipe through ANGLE's OpenGL ES backend when Mesa's EGL is installed
// (the faster rasteriser here: docs/viewer.md), else ANGLE's SwiftShader (Vulkan on the CPU,
// bundled with Chromium). Env VIEWER_GL=llvmpipe|swiftshader forces one; VIEWER_CHROMIUM_FLAGS
// adds switches.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const kFlags = {
  llvmpipe: ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'],
  swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
};
export const marker = `--solfec-viewer-test=${process.pid}`;  // finds the browser's processes

async function launch(gl) {
  const require = createRequire(path.join(process.env.VIEWER_DIR, 'package.json'));
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu-sandbox',
      marker, ...kFlags[gl], ...(process.env.VIEWER_CHROMIUM_FLAGS || '').split(' ').filter(Boolean)],
  });
}

async function rendererName(browser) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
      return ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : '';
    });
  } finally {
    await page.close();
  }
}

export async function launchBrowser() {
  const want = process.env.VIEWER_GL || 'auto';
  if (want !== 'auto') return launch(want);
  const browser = await launch('llvmpipe');
  if (/llvmpipe/i.test(await rendererName(browser))) return browser;
  await browser.close();  // no Mesa EGL: SwiftShader
  return launch('swiftshader');
}

export async function openPage(browser, errors) {
  const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  return page;
}

// CPU time [ms] used so far by the processes of this script's browser (all threads; the
// machine-independent cost of what the page did, unlike frames per second on a shared machine):
// {total, renderer (the page's JS), gpu (WebGL and compositing), other}
export function browserCpuMs() {
  const procs = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8'), f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      procs.set(d, { ppid: f[1], ticks: Number(f[11]) + Number(f[12]), mine: cmd.includes(marker),
        type: (cmd.match(/--type=([a-z-]+)/) || [])[1] });
    } catch { /* the process ended meanwhile */ }
  }
  const mine = (p, depth = 0) => p && depth < 32 && (p.mine || mine(procs.get(p.ppid), depth + 1));
  const ms = { total: 0, renderer: 0, gpu: 0, other: 0 };
  for (const p of procs.values()) {
    if (!mine(p)) continue;
    const t = 10 * p.ticks;  // USER_HZ = 100 on Linux
    ms.total += t;
    ms[p.type === 'renderer' ? 'renderer' : p.type === 'gpu-process' ? 'gpu' : 'other'] += t;
  }
  return ms;
}
