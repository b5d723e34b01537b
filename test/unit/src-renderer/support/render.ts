/** Rendering helpers for component tests (happy-dom): JSX-free, through createElement. */
import { render } from '@testing-library/react'
import { createElement, type ComponentType, type ReactElement } from 'react'
import type { AppStore } from '../../../../src-renderer/store/store.ts'
import { StoreProvider } from '../../../../src-renderer/store/store.ts'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export const h = createElement

/** Renders an element inside the store provider. */
export function renderWithStore(store: AppStore, element: ReactElement) {
  return render(h(StoreProvider, { store, children: element }))
}

export function el<P extends object>(c: ComponentType<P>, props: P): ReactElement {
  return h(c as ComponentType<object>, props)
}
