// Generated from packages/core/src/extract/ooxml.ts by `npm run sync:core`: edit that file, not this one.
import { DOMParser } from '@xmldom/xmldom'
import JSZip from 'jszip'
import { ExtractError } from './errors.ts'
import { assertNotZipBomb, readCentralDirectory } from './zip-guard.ts'

/** An Office Open XML package (PPTX, XLSX): its parts by path, read and parsed on demand. */
export interface OoxmlPackage {
  has(path: string): boolean
  /** The part parsed as XML, or undefined when the package has no such part. */
  xml(path: string): Promise<Element | undefined>
  /** The targets of a part's relationships by id, resolved to package paths. */
  relationships(path: string): Promise<Map<string, { target: string; type: string }>>
}

/**
 * Opens a package after checking its declared sizes (a zip bomb is refused before anything is
 * inflated) and that it holds `mainPart`, the part that makes it the format it claims to be.
 */
export async function openPackage(
  bytes: Uint8Array,
  mainPart: string,
  formatName: string,
  maxUnzippedBytes: number,
): Promise<OoxmlPackage> {
  const entries = readCentralDirectory(bytes)
  if (!entries.some((entry) => entry.name === mainPart)) {
    throw new ExtractError('unsupported_type', `This ZIP file is not ${formatName}.`)
  }
  assertNotZipBomb(entries, maxUnzippedBytes)
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(bytes)
  } catch (error) {
    throw new ExtractError('corrupt', `This file is damaged and cannot be read.`, { cause: error })
  }
  const xml = async (path: string) => {
    const file = zip.file(path)
    if (!file) return undefined
    const text = await file.async('string')
    // Producers write sloppy XML at times: read what parses rather than log every slip.
    const doc = new DOMParser({ errorHandler: () => undefined }).parseFromString(text, 'text/xml')
    return (doc.documentElement as unknown as Element | null) ?? undefined
  }
  return {
    has: (path) => zip.file(path) !== null,
    xml,
    async relationships(path) {
      const slash = path.lastIndexOf('/')
      const folder = path.slice(0, slash + 1)
      const rels = await xml(`${folder}_rels/${path.slice(slash + 1)}.rels`)
      const map = new Map<string, { target: string; type: string }>()
      for (const rel of descendants(rels, 'Relationship')) {
        if (rel.getAttribute('TargetMode') === 'External') continue
        const target = rel.getAttribute('Target') ?? ''
        map.set(rel.getAttribute('Id') ?? '', {
          target: resolvePath(folder, target),
          type: rel.getAttribute('Type') ?? '',
        })
      }
      return map
    },
  }
}

/** A relationship target ("../slides/slide1.xml", "/xl/x.xml") as a path inside the package. */
function resolvePath(folder: string, target: string): string {
  const parts = target.startsWith('/') ? [] : folder.split('/').filter(Boolean)
  for (const part of target.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

// Namespace prefixes vary between producers: elements are matched by local name.

/** The element's child elements, those named `name` when given. */
export function children(node: Element | undefined, name?: string): Element[] {
  if (!node) return []
  const found: Element[] = []
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && (name === undefined || (child as Element).localName === name)) {
      found.push(child as Element)
    }
  }
  return found
}

export function child(node: Element | undefined, name: string): Element | undefined {
  return children(node, name)[0]
}

/** Every descendant element named `name`, in document order. */
export function descendants(node: Element | undefined, name: string): Element[] {
  if (!node) return []
  return Array.from(node.getElementsByTagNameNS('*', name))
}

/** The first element at the end of a path of child names. */
export function path(node: Element | undefined, ...names: string[]): Element | undefined {
  let at = node
  for (const name of names) at = child(at, name)
  return at
}
