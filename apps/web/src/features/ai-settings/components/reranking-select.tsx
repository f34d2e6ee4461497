import { Label } from '@/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { type Reranking, rerankingSchema } from '../api/update-reranking'

type RerankingSelectProps = {
  value: Reranking
  /** The workspace's chat model, which judges when reranking is 'judge'. */
  chatModel: string | null
  /** The server's rerank model, when it has one. */
  rerankModel: { label: string } | undefined
  disabled: boolean
  onChange: (value: Reranking) => void
}

/** How search and chat reorder the passages they find, with what each choice costs. */
export function RerankingSelect({
  value,
  chatModel,
  rerankModel,
  disabled,
  onChange,
}: RerankingSelectProps) {
  const idle =
    (value === 'judge' && !chatModel) || (value === 'model' && !rerankModel)
      ? ' Nothing is reranked until that model is available.'
      : ''
  return (
    <div className="grid gap-2">
      <Label htmlFor="reranking">Reranking</Label>
      <Select
        value={value}
        disabled={disabled}
        onValueChange={(next) => onChange(rerankingSchema.parse(next))}
      >
        <SelectTrigger id="reranking" aria-describedby="reranking-help" className="w-full sm:w-96">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="off">Off — the search order</SelectItem>
          <SelectItem value="judge" disabled={!chatModel && value !== 'judge'}>
            {chatModel ? 'Chat model as judge' : 'Chat model as judge (choose a chat model)'}
          </SelectItem>
          {(rerankModel || value === 'model') && (
            <SelectItem value="model">
              {rerankModel ? `Rerank model: ${rerankModel.label}` : 'Rerank model (unavailable)'}
            </SelectItem>
          )}
        </SelectContent>
      </Select>
      <p id="reranking-help" className="text-muted-foreground text-sm">
        Reorders the best 40 passages of each search and answer by how well they answer the
        question, at the cost of one more model call. If the model fails or is slow, the search
        order stands.{idle}
      </p>
    </div>
  )
}
