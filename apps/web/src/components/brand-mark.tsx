/** The console's mark: a sun over a solar panel, drawn inline so no image request is needed. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="22" cy="20" r="10" fill="#f5a623" />
      <g stroke="#f5a623" strokeWidth="3" strokeLinecap="round">
        <path d="M22 3v5M22 32v5M5 20h5M34 20h5M10 8l3.5 3.5M30.5 28.5 34 32M10 32l3.5-3.5M30.5 11.5 34 8" />
      </g>
      <path d="M14 40h44l-6 20H8z" fill="#2f6fd6" />
      <path d="M25 40l-4 20M36 40l-2 20M47 40l1 20M11 50h46" stroke="#bcd6f7" strokeWidth="1.6" />
    </svg>
  );
}
