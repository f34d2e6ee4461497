import { cn } from '@/lib/utils'
import { COLLECTION_COLORS, type CollectionColor, colorDot, colorLabel } from '../utils/colors'

type ColorPickerProps = { value: CollectionColor; onChange: (color: CollectionColor) => void }

/** The palette as a radio group: arrow keys move between colours, each named for screen readers. */
export function ColorPicker({ value, onChange }: ColorPickerProps) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm leading-none font-medium">Colour</legend>
      <div className="flex flex-wrap gap-2">
        {COLLECTION_COLORS.map((color) => (
          <label
            key={color}
            title={colorLabel(color)}
            className="has-focus-visible:ring-ring/50 relative grid size-8 cursor-pointer place-items-center rounded-full has-focus-visible:ring-[3px]"
          >
            <input
              type="radio"
              name="collection-color"
              value={color}
              checked={value === color}
              onChange={() => onChange(color)}
              className="peer sr-only"
              aria-label={colorLabel(color)}
            />
            <span
              aria-hidden
              className={cn(
                'ring-offset-background peer-checked:ring-foreground size-6 rounded-full ring-offset-2 peer-checked:ring-2',
                colorDot[color],
              )}
            />
          </label>
        ))}
      </div>
    </fieldset>
  )
}
