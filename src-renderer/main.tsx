import { createRoot } from 'react-dom/client'

function Placeholder() {
  return (
    <main>
      <h1>OB Console</h1>
      <p>The console UI is being built. Run <code>ob-console sandbox</code> for the local sandbox of the bank.</p>
    </main>
  )
}

createRoot(document.getElementById('root')!).render(<Placeholder />)
