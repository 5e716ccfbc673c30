/**
 * A charge's method logos (`payment_method.display_logo` and `method_logo`), in the shape of the service's charges
 * OpenAPI ("Get Charge Details": `{ sm, md, lg, svg, svg_square, png_square, method, iconName, displayName }`,
 * each size an icon URL under the API host's `/icons/methods/<size>/<icon>.<png|svg>`), and the route that serves
 * those URLs, so a shop that shows the icon gets an image. The sandbox has no artwork: an SVG is a plain badge
 * with the icon's name, a PNG a 1x1 transparent pixel. The URLs are the shape the service documents; the
 * images are the sandbox's.
 */
import { Hono } from 'hono';

/** The sizes of a logo and the file type of each, as the service's logo objects name them. */
const ICON_FILES = {
  sm: 'png',
  md: 'png',
  lg: 'png',
  svg: 'svg',
  svg_square: 'svg',
  png_square: 'png',
} as const;

type IconSize = keyof typeof ICON_FILES;

/** The path the icons are served under, as the service's URLs have it. */
export const METHOD_ICONS_PATH = '/icons/methods';

/** A method logo as the service's charge carries it. */
export type MethodLogo = Record<IconSize, string> & { method: string; iconName: string; displayName: string };

/**
 * The logo object of icon `icon` (`visa`, `card`, `paynow_online`: lower-case letters, digits and `_`), with the
 * name people read (`Visa`, `Cards`), its URLs on the sandbox at `publicUrl`.
 */
export function methodLogo(publicUrl: string, icon: string, displayName: string): MethodLogo {
  const url = (size: IconSize) => `${publicUrl}${METHOD_ICONS_PATH}/${size}/${icon}.${ICON_FILES[size]}`;
  return {
    sm: url('sm'),
    md: url('md'),
    lg: url('lg'),
    svg: url('svg'),
    svg_square: url('svg_square'),
    png_square: url('png_square'),
    method: icon,
    iconName: icon,
    displayName,
  };
}

/** A 1x1 transparent PNG: the sandbox's image for every PNG size. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A badge with the icon's name (already restricted to `[a-z0-9_]`, so nothing needs escaping). */
function badgeSvg(icon: string, square: boolean): string {
  const [width, height] = square ? [64, 64] : [96, 40];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" rx="6" fill="#eef1f5"/>` +
    `<text x="50%" y="55%" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#333">${icon}</text>` +
    '</svg>'
  );
}

/**
 * `GET /icons/methods/{size}/{icon}.{png|svg}`: the image of a logo URL, public as the service's are (any origin may
 * show it). A size the service does not name, or the wrong file type for it, is the app's 404.
 */
export function methodIconRoutes(): Hono {
  const routes = new Hono();
  routes.get('/:size/:file', (c) => {
    const size = c.req.param('size');
    const match = /^([a-z0-9_]{1,64})\.(png|svg)$/.exec(c.req.param('file'));
    if (!Object.hasOwn(ICON_FILES, size) || !match || ICON_FILES[size as IconSize] !== match[2]) return c.notFound();
    const headers = {
      'cache-control': 'public, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
    };
    if (match[2] === 'svg') {
      return c.body(badgeSvg(match[1]!, size === 'svg_square'), 200, {
        ...headers,
        'content-type': 'image/svg+xml',
      });
    }
    return c.body(new Uint8Array(PIXEL_PNG), 200, { ...headers, 'content-type': 'image/png' });
  });
  return routes;
}
