// Where each unfinished TUS upload is, by Storage path, kept in localStorage so that an upload
// cut by a reload (or a closed tab) can continue from the server's offset once the person
// chooses the same file again. Only URLs: no bytes, nothing that outlives the upload's success.
const prefix = 'sourcebook.upload.'

export function keepUploadUrl(path: string, url: string | null) {
  try {
    if (url) localStorage.setItem(prefix + path, url)
    else localStorage.removeItem(prefix + path)
  } catch {
    // Storage full or denied: the upload still works, it just starts over after a reload.
  }
}

export function keptUploadUrl(path: string): string | undefined {
  try {
    return localStorage.getItem(prefix + path) ?? undefined
  } catch {
    return undefined
  }
}
