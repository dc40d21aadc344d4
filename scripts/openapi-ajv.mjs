// SPDX-License-Identifier: MIT
// One ajv setup for openapi.yaml, shared by validate-example-responses.mjs
// and validate-responses.mjs: OpenAPI's own keywords are annotations to a
// JSON Schema (2020-12) validator, and every "#/components/schemas/X" $ref
// is rewritten to a $defs entry of one schema registered under ID.
//
// A discriminated oneOf is validated against the branch its tag names
// only. Without that, a 400 KB answer is also held to the 17 other games'
// schemas and, with allErrors, each of them records an error per array
// item: a minute and 700 MB for one stone_front3 answer. ajv takes the
// tags from each branch's `const` and refuses an explicit mapping, so the
// document's mapping is checked against those consts and then dropped.

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
                : k === "discriminator" && v && typeof v === "object"
                ? { propertyName: v.propertyName }
                : rewriteRefs(v);
        return out;
    }
    return node;
}

// Throws unless every discriminator's mapping names, for each tag, a oneOf
// branch whose tag property is exactly that const, and covers every branch.
export function checkDiscriminators(schemas) {
    const walk = (node, where) => {
        if (!node || typeof node !== "object")
            return;
        if (node.discriminator?.mapping) {
            const { propertyName: tag, mapping } = node.discriminator;
            const branches = (node.oneOf ?? []).map((b) => b.$ref);
            for (const [value, ref] of Object.entries(mapping)) {
                const target = ref.startsWith(SCHEMA_REF) ? schemas[ref.slice(SCHEMA_REF.length)] : undefined;
                if (!branches.includes(ref) || target?.properties?.[tag]?.const !== value)
                    throw new Error(`${where}: discriminator mapping ${value} -> ${ref} is not the oneOf branch whose ${tag} is const ${value}`);
            }
            if (Object.keys(mapping).length !== branches.length)
                throw new Error(`${where}: the discriminator's mapping does not cover every oneOf branch`);
        }
        for (const [k, v] of Object.entries(node))
            walk(v, `${where}/${k}`);
    };
    walk(schemas, "#/components/schemas");
}

// An ajv instance holding the spec's component schemas (throws when they do
// not compile); compile further schemas with ajv.compile(rewriteRefs(s)).
export function specAjv(spec) {
    const schemas = spec.components?.schemas ?? {};
    checkDiscriminators(schemas);
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, discriminator: true });
    ajv.addVocabulary(["xml", "externalDocs", "example"]);
    addFormats(ajv);
    ajv.addSchema({ $id: ID, $defs: rewriteRefs(schemas) });
    return ajv;
}
