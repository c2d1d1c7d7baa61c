import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../errors/ApiError';
import type { RouteRegistry } from '../http/RouteRegistry';
import { docsPage } from './docsPage';
import { buildOpenApi, OpenApiSource } from './OpenApiDocument';

/** The renderer's files served from its npm package: the page works offline, with no CDN. */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/**
 * `/openapi.json` and the `/docs` reference page (Swagger UI, from the swagger-ui-dist package, plus
 * a status view). Mounted after every plugin's routes; `build()` then generates the document once
 * from everything mounted, these routes included.
 */
export class ApiReference {
  private document?: string;
  private readonly assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  private readonly assetCache = new Map<string, Buffer>();

  mount(routes: RouteRegistry): void {
    routes.get(
      '/openapi.json',
      'GetOpenApi',
      (ctx) => {
        if (!this.document) throw ApiError.timeout('the API document is not built yet');
        ctx.set('Cache-Control', 'public, max-age=60');
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = this.document;
      },
      { summary: 'this document (OpenAPI 3.1)' },
    );
    routes.get(
      '/docs',
      'GetDocs',
      (ctx) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = docsPage();
      },
      { summary: 'the API reference and the indexer status, for people', mediaType: 'text/html' },
    );
    routes.get(
      '/docs/assets/:file',
      'GetDocsAsset',
      (ctx) => {
        const file = ctx.params.file;
        const type = ASSETS.get(file);
        if (!type) throw ApiError.notFound(`no such asset '${file}'`);
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.type = type;
        ctx.body = this.asset(file);
      },
      {
        summary: 'files of the reference page (Swagger UI)',
        mediaType: 'application/octet-stream',
        pathParams: { file: { type: 'string', enum: [...ASSETS.keys()] } },
      },
    );
  }

  build(source: OpenApiSource): Record<string, unknown> {
    const doc = buildOpenApi(source);
    this.document = JSON.stringify(doc);
    return doc;
  }

  private asset(file: string): Buffer {
    let data = this.assetCache.get(file);
    if (!data) this.assetCache.set(file, (data = readFileSync(path.join(this.assetDir, file))));
    return data;
  }
}
