import { encode } from 'uqr'

/**
 * A QR code drawn here from the otpauth:// URI, one path of dark modules on a white quiet
 * zone (scanners need the contrast in the dark theme too); no data: image, which the
 * Content-Security-Policy does not allow.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { ecc: 'M', border: 2 })
  let path = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    }),
  )
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-44 rounded-md border bg-white"
    >
      <path d={path} fill="#000" />
    </svg>
  )
}
