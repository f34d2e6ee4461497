import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FormError } from '@/components/layout/form-error'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useAiSettings } from '../api/get-ai-settings'
import { useModels } from '../api/get-models'
import { useUpdateModels } from '../api/update-models'
import { useUpdateReranking } from '../api/update-reranking'
import { useEmbeddingBuild } from '../hooks/use-embedding-build'
import { EmbeddingProgress } from './embedding-progress'
import { ModelSelect } from './model-select'
import { NoProvider } from './no-provider'
import { RerankingSelect } from './reranking-select'

type AiModelsCardProps = { workspaceId: string; canEdit: boolean }

/** The workspace's chat and embedding models: owners choose, other members see. */
export function AiModelsCard({ workspaceId, canEdit }: AiModelsCardProps) {
  const models = useModels()
  const settings = useAiSettings(workspaceId)
  const update = useUpdateModels()
  const rerank = useUpdateReranking()
  const current = settings.data
  const building = Boolean(current && current.missing > 0 && current.chunks > 0)
  const build = useEmbeddingBuild(workspaceId, canEdit && building)

  return (
    <Card>
      <CardHeader>
        <CardTitle>AI models</CardTitle>
        <CardDescription>
          {canEdit
            ? 'The model that writes answers, the one that makes search understand meaning, and how results are reordered.'
            : 'Only an owner can change the models.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {models.isPending || settings.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : models.isError || settings.isError ? (
          <FormError message={errorMessage(models.error ?? settings.error)} />
        ) : models.data.chat.length + models.data.embedding.length + models.data.rerank.length ===
          0 ? (
          <NoProvider />
        ) : (
          <>
            <ModelSelect
              id="chat-model"
              label="Chat model"
              noneLabel="None — answers are extracted from the documents"
              models={models.data.chat}
              value={settings.data.chatModel}
              disabled={!canEdit || update.isPending}
              onChange={(model) => update.mutate({ workspaceId, kind: 'chat', model })}
            />
            <ModelSelect
              id="embedding-model"
              label="Embedding model"
              noneLabel="None — search is lexical only"
              models={models.data.embedding}
              value={settings.data.pendingEmbeddingModel ?? settings.data.embeddingModel}
              disabled={!canEdit || update.isPending}
              onChange={(model) =>
                update.mutate({ workspaceId, kind: 'embedding', model, current: settings.data })
              }
            />
            <RerankingSelect
              value={settings.data.reranking}
              chatModel={settings.data.chatModel}
              rerankModel={models.data.rerank[0]}
              // Not disabled while saving: a trigger disabled under the list as it closes
              // loses the keyboard focus the list hands back to it.
              disabled={!canEdit}
              onChange={(reranking) => rerank.mutate({ workspaceId, reranking })}
            />
            {building && (
              <EmbeddingProgress
                rebuilding={settings.data.pendingEmbeddingModel !== null}
                chunks={settings.data.chunks}
                missing={settings.data.missing}
                error={build.error}
                {...(canEdit ? { onRetry: build.retry } : {})}
              />
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}
