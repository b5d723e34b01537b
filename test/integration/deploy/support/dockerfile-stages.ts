import type { Copy } from 'dockerfile-ast'
import { DockerfileParser, Env, JSONInstruction, type Instruction } from 'dockerfile-ast'

/** One COPY of the runtime stage: its `--from` stage, its sources and destination as written. */
export interface StageCopy {
  from: string | undefined
  sources: string[]
  destination: string
}

export interface RuntimeStage {
  /** The WORKDIR of the stage the runtime copies from (build), where its sources are relative to the repository. */
  buildWorkdir: string
  /** The runtime stage's WORKDIR. */
  workdir: string
  copies: StageCopy[]
  /** The runtime stage's ENV, by name. */
  env: Record<string, string>
  /** The HEALTHCHECK's CMD, in exec form. */
  healthcheck: string[]
  user: string | undefined
  entrypoint: string[]
  cmd: string[]
}

const args = (i: Instruction) => i.getArguments().map((a) => a.getValue())

/** The instructions of each stage, by stage name (`FROM … AS name`), in order. */
export function stages(text: string): Map<string, Instruction[]> {
  const out = new Map<string, Instruction[]>()
  let current: Instruction[] | undefined
  for (const i of DockerfileParser.parse(text).getInstructions()) {
    if (i.getKeyword() === 'FROM') {
      current = []
      out.set(args(i)[2] ?? `#${out.size}`, current)
    }
    current?.push(i)
  }
  return out
}

/** The exec-form (JSON) arguments of a CMD or ENTRYPOINT; empty for the shell form or none. */
function execForm(i: Instruction | undefined): string[] {
  return i instanceof JSONInstruction ? i.getJSONStrings().map((s) => s.getJSONValue()) : []
}

/** The exec-form command of a HEALTHCHECK (`HEALTHCHECK [options] CMD ["…"]`). */
function healthcheckCommand(i: Instruction | undefined): string[] {
  const text = i?.getArgumentsContent() ?? ''
  const at = text.search(/\bCMD\s+\[/)
  return at < 0 ? [] : (JSON.parse(text.slice(text.indexOf('[', at))) as string[])
}

/** The last stage of a Dockerfile (the image), as the test of the runtime stage needs it. */
export function runtimeStage(text: string): RuntimeStage {
  const all = stages(text)
  const names = [...all.keys()]
  const runtime = all.get(names[names.length - 1]!)!
  const last = (keyword: string, list = runtime) => list.filter((i) => i.getKeyword() === keyword).pop()
  const copies = runtime
    .filter((i) => i.getKeyword() === 'COPY')
    .map((i) => {
      const a = args(i)
      return {
        from: (i as Copy).getFromFlag()?.getValue() ?? undefined,
        sources: a.slice(0, -1),
        destination: a.at(-1)!,
      }
    })
  const env: Record<string, string> = {}
  for (const i of runtime.filter((x): x is Env => x instanceof Env))
    for (const p of i.getProperties()) env[p.getName()] = p.getUnescapedValue() ?? ''
  const build = all.get('build') ?? []
  return {
    buildWorkdir: args(last('WORKDIR', build)!)[0] ?? '/',
    workdir: args(last('WORKDIR')!)[0] ?? '/',
    copies,
    env,
    healthcheck: healthcheckCommand(last('HEALTHCHECK')),
    user: last('USER') ? args(last('USER')!)[0] : undefined,
    entrypoint: execForm(last('ENTRYPOINT')),
    cmd: execForm(last('CMD')),
  }
}
