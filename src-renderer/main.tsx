import './styles/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { detectApi } from './api/api.ts'
import { App } from './app/app.tsx'
import { initTheme } from './lib/theme.ts'
import { connectEvents, createAppStore, StoreProvider } from './store/store.ts'

initTheme()
const api = detectApi()
const store = createAppStore(api)
connectEvents(store, api)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
)
