import { TriangleAlertIcon } from 'lucide-react'
import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/errors'

/** Each route's error boundary: the rest of the app keeps working. */
export function RouteError() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center"
    >
      <TriangleAlertIcon className="text-muted-foreground mb-4 size-8" aria-hidden />
      <h1 className="text-lg font-semibold">
        {notFound ? 'We can’t find that page' : 'This page failed to load'}
      </h1>
      <p className="text-muted-foreground mt-2 text-sm">
        {notFound
          ? 'It may have been deleted, or you may not have access to it.'
          : errorMessage(error)}
      </p>
      <div className="mt-6 flex gap-2">
        {!notFound ? <Button onClick={() => window.location.reload()}>Try again</Button> : null}
        <Button variant="outline" asChild>
          <Link to="/">Go home</Link>
        </Button>
      </div>
    </div>
  )
}
