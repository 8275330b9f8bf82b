import { fileURLToPath } from 'node:url';
import type { Browser } from './browser.js';

/** The window the report pages are photographed in: what README shows and the tests compare. */
export const SCREENSHOT_VIEWPORT = { width: 1200, height: 900 };

/** The committed screenshot of a report page: README shows it, the browser test compares the page with it. */
export function screenshotFile(name: string): string {
  return fileURLToPath(new URL(`../../docs/images/report-${name}.png`, import.meta.url));
}

/**
 * How far two screenshots are apart, compared in Chromium itself (both PNGs drawn on a canvas), so no image library
 * is needed. One Chromium with one set of fonts draws a page the same to the pixel (measured: 0 pixels differ between
 * runs); the tolerance is for another build of Chromium or FreeType smoothing a glyph's edge differently: a pixel
 * differs when a channel differs by more than 16 of 255, and up to 0.2 % of the pixels may. A badge's colour changed
 * by 25 (planted once) differs in 1.7 to 3.6 % of the pixels; a changed word, badge or row in more.
 */
export const CHANNEL_TOLERANCE = 16;
export const PIXEL_TOLERANCE = 0.002;

export interface ScreenshotDifference {
  sameSize: boolean;
  differing: number;
  total: number;
  withinTolerance: boolean;
}

/** The page's globals this file uses: the project compiles without the DOM library. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}
interface PageGlobals {
  Image: new () => { src: string; naturalWidth: number; naturalHeight: number; decode(): Promise<void> };
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        drawImage(image: unknown, x: number, y: number): void;
        getImageData(x: number, y: number, width: number, height: number): Pixels;
      } | null;
    };
  };
}

export async function compareScreenshots(
  browser: Browser,
  expected: Buffer,
  actual: Buffer,
): Promise<ScreenshotDifference> {
  const page = await browser.context.newPage();
  try {
    return await page.evaluate(
      async ({ a, b, channel, pixels }) => {
        const { Image, document } = globalThis as unknown as PageGlobals;
        async function load(base64: string): Promise<Pixels> {
          const image = new Image();
          image.src = `data:image/png;base64,${base64}`;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d')!;
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, canvas.width, canvas.height);
        }
        const [one, two] = await Promise.all([load(a), load(b)]);
        const total = one.width * one.height;
        if (one.width !== two.width || one.height !== two.height)
          return { sameSize: false, differing: total, total, withinTolerance: false };
        let differing = 0;
        for (let i = 0; i < one.data.length; i += 4) {
          for (let c = 0; c < 3; c++) {
            if (Math.abs(one.data[i + c]! - two.data[i + c]!) > channel) {
              differing++;
              break;
            }
          }
        }
        return { sameSize: true, differing, total, withinTolerance: differing <= total * pixels };
      },
      {
        a: expected.toString('base64'),
        b: actual.toString('base64'),
        channel: CHANNEL_TOLERANCE,
        pixels: PIXEL_TOLERANCE,
      },
    );
  } finally {
    await page.close();
  }
}
