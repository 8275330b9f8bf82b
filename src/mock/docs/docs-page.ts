/** What the docs page needs to know: where its files are and, for the public development key only, the key. */
export interface DocsPageOptions {
  /** Where the docs are served: `/docs`, or `/mock/docs` when the mock is mounted at `/mock`. */
  docsPath: string;
  /** Swagger UI's version, appended to asset URLs so that an upgrade is never served from a stale cache. */
  version: string;
  /**
   * Pre-filled in the Authorize dialog: only ever the public development key. `scheme`: the apiKey and HTTP bearer
   * schemes it fills, space-separated (names are `^[a-zA-Z0-9.\-_]+$`, OpenAPI §4.7.7); `basic`: the Basic ones,
   * filled with the key as the password.
   */
  devKey?: { scheme: string; basic?: string; key: string };
}

/** The page itself: Swagger UI with nothing inline (the CSP forbids inline scripts) and nothing from elsewhere. */
export function docsPage({ docsPath, version, devKey }: DocsPageOptions): string {
  const asset = (name: string) => `${docsPath}/${name}?v=${encodeURIComponent(version)}`;
  const basic = devKey?.basic ? ` data-dev-key-basic="${escapeHtml(devKey.basic)}"` : '';
  const devKeyAttributes = devKey ? ` data-dev-key-scheme="${escapeHtml(devKey.scheme)}"${basic} data-dev-key="${escapeHtml(devKey.key)}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Petstore API · petstore-kit mock</title>
<link rel="icon" type="image/png" href="${escapeHtml(asset('favicon-32x32.png'))}">
<link rel="stylesheet" href="${escapeHtml(asset('swagger-ui.css'))}">
</head>
<body>
<div id="swagger-ui" data-spec="${escapeHtml(`${docsPath}/openapi.json`)}"${devKeyAttributes}></div>
<script src="${escapeHtml(asset('swagger-ui-bundle.js'))}"></script>
<script src="${escapeHtml(asset('init.js'))}"></script>
</body>
</html>
`;
}

/**
 * Starts Swagger UI on the page above. `validatorUrl: null` stops it from fetching a badge from
 * validator.swagger.io: the page must work offline and send nothing elsewhere.
 */
export const docsInitScript = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var data = root.dataset;
  window.ui = SwaggerUIBundle({
    url: data.spec,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    displayRequestDuration: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      if (!data.devKey) return;
      (data.devKeyScheme || '').split(' ').forEach(function (name) {
        if (name) window.ui.preauthorizeApiKey(name, data.devKey);
      });
      (data.devKeyBasic || '').split(' ').forEach(function (name) {
        if (name) window.ui.preauthorizeBasic(name, 'petstore', data.devKey);
      });
    },
  });
})();
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
