import { createRequire } from 'node:module'

/** What the tests use of Postman's own SDK (`postman-collection`, dev), which reads a collection as Postman does. */
export interface PostmanSdkItem {
  name: string
  request: {
    method: string
    url: { toString(): string }
    headers: { get(key: string): string | undefined; has(key: string): boolean }
    body?: { raw?: string }
    description?: { toString(): string } | string
  }
}
export interface PostmanSdkCollection {
  name: string
  items: { all(): PostmanSdkItem[] }
  toJSON(): unknown
}

const sdk = createRequire(import.meta.url)('postman-collection') as {
  Collection: new (definition: unknown) => PostmanSdkCollection
}

/**
 * A collection (v2.1 JSON) as Postman's SDK reads it.
 *
 * @example readCollection(JSON.parse(text)).items.all().map((i) => i.request.url.toString())
 */
export function readCollection(definition: unknown): PostmanSdkCollection {
  return new sdk.Collection(definition)
}
