export default function Home() {
  return <h1>自学</h1>
}
