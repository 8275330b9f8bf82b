// The text of src/generated/openapi.ts for the package's openapi.yaml (shared by the build and the drift test).
import openapiTS, { astToString } from 'openapi-typescript';

const spec = new URL('../openapi.yaml', import.meta.url);

export async function generateTypes() {
  const ast = await openapiTS(spec, { exportType: false, alphabetize: false });
  return `// Generated from openapi.yaml by scripts/generate-types.mjs (openapi-typescript); do not edit.\n\n${astToString(ast)}`;
}
