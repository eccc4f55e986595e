// Replaced by the catalogue screens.
export default function Page() {
  return null
}
