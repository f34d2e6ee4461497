import { useLocation, useNavigate, useNavigationType, useSearchParams } from 'react-router'
import { readSearchUrl, type SearchUrlState, writeSearchUrl } from '../utils/search-url'

/** Marks the history entries the search page wrote itself. */
const fromSearchPage = { searchPage: true }

/**
 * The search page's state in its URL, and a way to change it: replacing the entry (while
 * typing) or pushing a new one (a submitted query, a filter), so Back steps through searches.
 * `external` says the last navigation came from elsewhere (Back, Forward, a link), and the
 * search box should show the URL's query rather than what it holds.
 */
export function useSearchUrl() {
  const [params] = useSearchParams()
  const location = useLocation()
  const navigationType = useNavigationType()
  const navigate = useNavigate()
  const state = readSearchUrl(params)
  const external =
    navigationType === 'POP' ||
    (location.state as typeof fromSearchPage | null)?.searchPage !== true

  function update(patch: Partial<SearchUrlState>, { push = false } = {}) {
    const search = writeSearchUrl(params, patch)
    if (search === location.search && !push) return Promise.resolve()
    return Promise.resolve(
      navigate(
        { pathname: location.pathname, search },
        { replace: !push || search === location.search, state: fromSearchPage },
      ),
    )
  }

  return { state, update, locationKey: location.key, external }
}
