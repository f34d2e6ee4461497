import type { LoaderFunction } from 'react-router'

type RouteModule = {
  default: React.ComponentType
  loader?: LoaderFunction
}

/** Maps a route module (default export + optional `loader`) to React Router's lazy route. */
export function lazyRoute(load: () => Promise<RouteModule>) {
  return async () => {
    const module = await load()
    return { Component: module.default, loader: module.loader }
  }
}
