import { SEARCH_LIMIT } from '../api/search-chunks'

/**
 * How many passages matched. The search function returns at most SEARCH_LIMIT, so a full page
 * is "the top 20", not a total.
 */
export function ResultCount({ count }: { count: number }) {
  return (
    <p className="text-muted-foreground text-sm" role="status">
      {count >= SEARCH_LIMIT
        ? `Top ${SEARCH_LIMIT} results`
        : `${count} ${count === 1 ? 'result' : 'results'}`}
    </p>
  )
}
