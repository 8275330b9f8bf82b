import type { Spec } from '../../openapi/load-spec.js';
import { isInterfaceDocument } from '../../openapi/interface-words.js';
import type { CheckBasis } from '../base/check-basis.js';

/** The document a run judged, as every report form names it beside its file or URL (`spec`). */
export interface ReportDocument {
  /** `info.title` and `info.version`. */
  title: string;
  version: string;
  /** What its checks rest on: the interface's sentences on the interface's own document, else its own and the RFCs'. */
  basis: CheckBasis;
}

/**
 * The judged document's title, version and basis: `interface` for openapi.yaml and its later versions (they declare
 * the interface's Error: isInterfaceDocument), `document` for any other.
 * @example reportDocument(await loadSpec()) // { title: 'Petstore API', version: '1.0.0', basis: 'interface' }
 */
export function reportDocument(spec: Pick<Spec, 'document'>): ReportDocument {
  return {
    title: spec.document.info.title,
    version: spec.document.info.version,
    basis: isInterfaceDocument(spec.document) ? 'interface' : 'document',
  };
}
