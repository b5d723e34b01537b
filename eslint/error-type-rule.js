// ESLint rule keeping the console to one error type (docs/architecture.md, Conventions: Errors): an error
// with a code is an AppError (src-main/core/app-error.ts), never an Error given a code by hand, which
// `isAppError` rejects (the code, cause and fix are then lost on the way to the UI). Applies to src-main and
// src-renderer, except the local sandbox (the bank keeps its own errors) and app-error.ts, which defines it.
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')
const EXEMPT = [path.join('src-main', 'local-sandbox') + path.sep, path.join('src-main', 'core', 'app-error.ts')]

const USE_APP_ERROR =
  'Throw an AppError (src-main/core/app-error.ts) with a code of src-main/contract/errors.ts and what/cause/fix'

/** True for a file the rule checks: in src-main or src-renderer, outside the local sandbox and app-error.ts. */
function applies(file) {
  const rel = path.relative(ROOT, file)
  if (!rel.startsWith('src-main' + path.sep) && !rel.startsWith('src-renderer' + path.sep)) return false
  return !EXEMPT.some((e) => rel === e || rel.startsWith(e))
}

/** The expression under TypeScript's `as`, `!`, `satisfies` and `<T>` wrappers. */
function unwrap(node) {
  let n = node
  while (
    n &&
    (n.type === 'TSAsExpression' ||
      n.type === 'TSNonNullExpression' ||
      n.type === 'TSSatisfiesExpression' ||
      n.type === 'TSTypeAssertion')
  )
    n = n.expression
  return n
}

/** `Error`, `TypeError`, `AppError`...: a name that ends in Error. */
const isErrorName = (name) => typeof name === 'string' && /Error$/.test(name)

/** `new Error(...)` (any *Error constructor). */
function isNewError(node) {
  const n = unwrap(node)
  return n?.type === 'NewExpression' && n.callee.type === 'Identifier' && isErrorName(n.callee.name)
}

/** The key of a property or member, when it is a plain name or a string. */
function keyName(node, computed) {
  if (!node) return undefined
  if (!computed && node.type === 'Identifier') return node.name
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value
  return undefined
}

const hasCodeProperty = (object) =>
  object.type === 'ObjectExpression' &&
  object.properties.some((p) => p.type === 'Property' && keyName(p.key, p.computed) === 'code')

/** The variable `identifier` names, from the scope of `node`. */
function variableOf(context, node, identifier) {
  let scope = context.sourceCode.getScope(node)
  while (scope) {
    const found = scope.set.get(identifier.name)
    if (found) return found
    scope = scope.upper
  }
  return undefined
}

/** True when `node` is a name of a variable declared as `new Error(...)`. */
function namesNewError(context, node) {
  const n = unwrap(node)
  if (n?.type !== 'Identifier') return false
  const variable = variableOf(context, n, n)
  return Boolean(
    variable?.defs.some(
      (d) => d.type === 'Variable' && d.node.type === 'VariableDeclarator' && isNewError(d.node.init),
    ),
  )
}

export const errorTypeRule = {
  meta: {
    type: 'problem',
    docs: { description: 'One error type: a coded error is an AppError, never an Error given a code by hand' },
    schema: [],
  },
  create(context) {
    if (!applies(context.filename)) return {}
    return {
      // Object.assign(new Error(...), {...}) and Object.assign(err, {...}) where err = new Error(...)
      CallExpression(node) {
        const callee = node.callee
        if (
          callee.type !== 'MemberExpression' ||
          callee.object.type !== 'Identifier' ||
          callee.object.name !== 'Object' ||
          !['assign', 'defineProperty', 'defineProperties'].includes(keyName(callee.property, callee.computed))
        )
          return
        const target = node.arguments[0]
        if (target && (isNewError(target) || namesNewError(context, target))) {
          context.report({ node, message: `${USE_APP_ERROR}, not an Error given properties by Object.assign.` })
        }
      },
      // err.code = '...' where err = new Error(...)
      AssignmentExpression(node) {
        const left = unwrap(node.left)
        if (left.type !== 'MemberExpression' || keyName(left.property, left.computed) !== 'code') return
        if (isNewError(left.object) || namesNewError(context, left.object)) {
          context.report({ node, message: `${USE_APP_ERROR}, not an Error given a code afterwards.` })
        }
      },
      // throw { code: '...', ... }
      ThrowStatement(node) {
        const thrown = unwrap(node.argument)
        if (thrown && hasCodeProperty(thrown)) {
          context.report({ node, message: `${USE_APP_ERROR}, not a plain object with a code.` })
        }
      },
      // class SomethingError extends Error { code = ... } (a second error type)
      'ClassDeclaration, ClassExpression'(node) {
        const base = node.superClass
        if (!base || base.type !== 'Identifier' || !isErrorName(base.name) || base.name === 'AppError') return
        const codeMember = node.body.body.some(
          (m) =>
            ((m.type === 'PropertyDefinition' || m.type === 'TSAbstractPropertyDefinition') &&
              keyName(m.key, m.computed) === 'code') ||
            (m.type === 'MethodDefinition' &&
              m.kind === 'constructor' &&
              m.value.params.some((p) => p.type === 'TSParameterProperty' && p.parameter.name === 'code')),
        )
        const assignsCode = context.sourceCode.getText(node.body).match(/\bthis\.code\s*=(?!=)/)
        if (codeMember || assignsCode) {
          context.report({
            node,
            message: `${USE_APP_ERROR}: a class extending ${base.name} with its own code is a second error type.`,
          })
        }
      },
    }
  },
}
