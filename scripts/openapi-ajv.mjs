// SPDX-License-Identifier: MIT
// One ajv setup for openapi.yaml, shared by validate-example-responses.mjs
// and validate-responses.mjs: OpenAPI's own keywords are annotations to a
// JSON Schema (2020-12) validator, and every "#/components/schemas/X" $ref
// is rewritten to a $defs entry of one schema registered under ID.

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const ID = "https://grundyd.invalid/openapi.yaml";
const SCHEMA_REF = "#/components/schemas/";

export function rewriteRefs(node) {
    if (Array.isArray(node))
        return node.map(rewriteRefs);
    if (node && typeof node === "object") {
        const out = {};
        for (const [k, v] of Object.entries(node))
            out[k] = k === "$ref" && typeof v === "string" && v.startsWith(SCHEMA_REF)
                ? `${ID}#/$defs/${v.slice(SCHEMA_REF.length)}`
                : rewriteRefs(v);
        return out;
    }
    return node;
}

// An ajv instance holding the spec's component schemas (throws when they do
// not compile); compile further schemas with ajv.compile(rewriteRefs(s)).
export function specAjv(spec) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
    ajv.addVocabulary(["discriminator", "xml", "externalDocs", "example"]);
    addFormats(ajv);
    ajv.addSchema({ $id: ID, $defs: rewriteRefs(spec.components?.schemas ?? {}) });
    return ajv;
}
