import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FormError } from '@/components/layout/form-error'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useAiSettings } from '../api/get-ai-settings'
import { useModels } from '../api/get-models'
import { useUpdateModels } from '../api/update-models'
import { useUpdateReranking } from '../api/update-reranking'
import { useEmbeddingBuild } from '../hooks/use-embedding-build'
import { embeddingState } from '../utils/embedding-state'
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
  // A choice shows at once while it saves, and the select stays enabled: disabling the
  // control that has focus would drop a keyboard user's focus onto the page. A change of
  // embedding model starts a rebuild, so that one select waits for its save.
  const savingChat = update.isPending && update.variables.kind === 'chat'
  const savingEmbedding = update.isPending && update.variables.kind === 'embedding'
  const embedding = current ? embeddingState(current, current.embedding) : null
  const building = embedding !== null && embedding.kind !== 'done'
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
              value={savingChat ? update.variables.model : settings.data.chatModel}
              disabled={!canEdit}
              onChange={(model) => update.mutate({ workspaceId, kind: 'chat', model })}
            />
            <ModelSelect
              id="embedding-model"
              label="Embedding model"
              noneLabel="None — search is lexical only"
              models={models.data.embedding}
              value={settings.data.pendingEmbeddingModel ?? settings.data.embeddingModel}
              disabled={!canEdit || savingEmbedding}
              onChange={(model) =>
                update.mutate({ workspaceId, kind: 'embedding', model, current: settings.data })
              }
            />
            <RerankingSelect
              value={rerank.isPending ? rerank.variables.reranking : settings.data.reranking}
              chatModel={settings.data.chatModel}
              rerankModel={models.data.rerank[0]}
              disabled={!canEdit}
              onChange={(reranking) => rerank.mutate({ workspaceId, reranking })}
            />
            {embedding && embedding.kind !== 'done' && (
              <EmbeddingProgress
                state={embedding}
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
