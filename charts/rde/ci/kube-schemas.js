#!/usr/bin/env node
// Writes kubeconform's "standalone-strict" JSON schemas (one file per kind, `<kind>-<group>-<version>.json`)
// from Kubernetes' own OpenAPI v2 document and from CustomResourceDefinitions given as JSON, so the
// chart's manifests are validated offline against the exact API of a Kubernetes release.
//   kube-schemas.js <out-dir> <swagger.json> [<crd.json>…]
const fs = require('node:fs');
const path = require('node:path');

const INT_OR_STRING = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
// YAML turns `cpu: 1` into a number; the API server takes either.
const QUANTITY = { oneOf: [{ type: 'string' }, { type: 'number' }] };
const QUANTITY_DEFINITION = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** kubeconform's file name: kind, first label of the API group (none for core), version. */
function fileName(kind, group, version) {
  const groupLabel = group === '' ? '' : `-${group.split('.')[0]}`;
  return `${kind.toLowerCase()}${groupLabel}-${version}.json`.toLowerCase();
}

/** Strict: an object that lists its properties takes no others; int-or-string becomes a oneOf. */
function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' || key.startsWith('x-kubernetes-')) continue;
    out[key] =
      key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)])) : strict(value);
  }
  if (schema.format === 'int-or-string' || schema['x-kubernetes-int-or-string']) {
    delete out.type;
    delete out.format;
    Object.assign(out, INT_OR_STRING);
  }
  if (out.properties && out.additionalProperties === undefined && !schema['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  return out;
}

/** The definitions a schema reaches through `$ref`, so each file carries only what it needs. */
function reachable(root, definitions) {
  const seen = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.replace('#/definitions/', '');
      if (!seen.has(name)) {
        seen.add(name);
        walk(definitions[name]);
      }
    }
    Object.values(node).forEach(walk);
  };
  walk(root);
  return [...seen];
}

function writeKubernetesSchemas(out, openapi) {
  const definitions = Object.fromEntries(
    Object.entries(openapi.definitions).map(([name, schema]) => [
      name,
      name === QUANTITY_DEFINITION ? QUANTITY : strict(schema),
    ]),
  );
  let count = 0;
  for (const [name, original] of Object.entries(openapi.definitions)) {
    for (const { group, version, kind } of original['x-kubernetes-group-version-kind'] ?? []) {
      const schema = definitions[name];
      const needed = reachable(schema, definitions);
      const standalone = { ...schema, definitions: Object.fromEntries(needed.map((n) => [n, definitions[n]])) };
      fs.writeFileSync(path.join(out, fileName(kind, group, version)), JSON.stringify(standalone));
      count += 1;
    }
  }
  return count;
}

function writeCrdSchemas(out, crd) {
  const { group, names } = crd.spec;
  for (const version of crd.spec.versions) {
    const schema = strict(version.schema.openAPIV3Schema);
    fs.writeFileSync(path.join(out, fileName(names.kind, group, version.name)), JSON.stringify(schema));
  }
  return crd.spec.versions.length;
}

function main([out, openapiFile, ...crdFiles]) {
  if (!out || !openapiFile) {
    console.error('usage: kube-schemas.js <out-dir> <swagger.json> [<crd.json>…]');
    process.exit(2);
  }
  fs.mkdirSync(out, { recursive: true });
  const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
  let count = writeKubernetesSchemas(out, read(openapiFile));
  for (const file of crdFiles) count += writeCrdSchemas(out, read(file));
  console.log(`${count} schemas in ${out}`);
}

main(process.argv.slice(2));
