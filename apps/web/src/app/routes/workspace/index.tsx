import { type LoaderFunctionArgs, redirect } from 'react-router'

export function loader({ params }: LoaderFunctionArgs) {
  throw redirect(`/w/${params.workspaceId}/library`)
}

export default function WorkspaceIndexRoute() {
  return null
}
