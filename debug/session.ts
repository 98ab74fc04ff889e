/**
 * The `tensor-lens` debug adapter: a DebugSession (Debug Adapter Protocol) that runs the program in
 * a debug target worker (target.ts) and relays requests to it. It answers `initialize`, `launch`,
 * `threads`, `pause`, `terminate` and `disconnect` itself; everything else (breakpoints, stepping,
 * stack, variables, evaluate, memory, the custom `tensorTrace` request) is answered by the target,
 * which serves them from its blocked thread while the program is paused.
 *
 * No `vscode` import: the extension runs it inline (client/src/debug.ts), tests drive it with a
 * DAP client over a socket or stdio (main.ts).
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { DebugSession, Event, ExitedEvent, InitializedEvent, OutputEvent, Response, TerminatedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { toDumpConfig, toLoadConfig } from '../core/sim/runConfigText';
import type { DumpConfig, LoadConfig } from '../core/sim/runConfig';
import {
  CTL,
  MSG,
  PAUSE,
  SHARED_INTS,
  WAKE,
  type FromTarget,
  type LaunchArgs,
  type TargetProcess,
  type TargetSpawner,
  isTargetCommand,
  type ToTarget,
} from './protocol';

export interface SessionOptions {
  /** Starts the debug target worker (nodeWorker.ts). */
  spawn: TargetSpawner;
}

export class TensorLensDebugSession extends DebugSession {
  private target?: TargetProcess;
  private port?: MessagePort;
  private sh?: Int32Array;
  private pending = new Map<number, DebugProtocol.Request>();
  private ended = false;
  private launchResponse?: DebugProtocol.LaunchResponse;

  constructor(private readonly opts: SessionOptions) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  protected override dispatchRequest(request: DebugProtocol.Request): void {
    if (!isTargetCommand(request.command)) {
      super.dispatchRequest(request);
      return;
    }
    if (!this.port || this.ended) {
      const r: DebugProtocol.Response = new Response(request);
      if (request.command === 'stackTrace') {
        r.body = { stackFrames: [], totalFrames: 0 };
        this.sendResponse(r);
      } else if (
        request.command === 'setBreakpoints' ||
        request.command === 'setExceptionBreakpoints' ||
        request.command === 'setDataBreakpoints' ||
        request.command === 'configurationDone'
      ) {
        r.body = request.command === 'setBreakpoints' || request.command === 'setDataBreakpoints' ? { breakpoints: [] } : undefined;
        this.sendResponse(r);
      } else this.sendErrorResponse(r, 1, this.ended ? 'the program has ended' : 'the program is not running');
      return;
    }
    this.pending.set(request.seq, request);
    this.toTarget({ t: 'req', seq: request.seq, command: request.command, args: request.arguments ?? {} });
  }

  private toTarget(m: ToTarget): void {
    const sh = this.sh!;
    this.port!.postMessage(m);
    Atomics.or(sh, CTL, MSG);
    Atomics.add(sh, WAKE, 1);
    Atomics.notify(sh, WAKE);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsSetVariable: true,
      supportsSetExpression: true,
      supportsReadMemoryRequest: true,
      supportsWriteMemoryRequest: true,
      supportsDataBreakpoints: true,
      supportsTerminateRequest: true,
      supportsExceptionInfoRequest: true,
      supportsValueFormattingOptions: true,
      // not delayed: VS Code would ask for the top frame, show 'Load More Stack Frames' until it asks for
      // the rest, and not redraw when the rest equals the previous stop's frames (the entry stayed although
      // every frame was shown); our frames are cheap, so VS Code gets them whole (20 at a time, totalFrames)
      supportsDelayedStackTraceLoading: false,
      exceptionBreakpointFilters: [
        {
          filter: 'faults',
          label: 'Run-time faults',
          description: 'Stop where the simulator reports a fault (bad address, division by zero, budget exhausted, …).',
          default: true,
        },
      ],
    };
    this.sendResponse(response);
  }

  protected override async launchRequest(
    response: DebugProtocol.LaunchResponse,
    args: DebugProtocol.LaunchRequestArguments & Partial<LaunchArgs>,
  ): Promise<void> {
    if (typeof args.program !== 'string' || !args.program) {
      this.sendErrorResponse(response, 1, 'launch: "program" (the tensor program to debug) is required');
      return;
    }
    let launch: LaunchArgs;
    try {
      launch = {
        program: args.program,
        entry: args.entry || undefined,
        args: args.args,
        buffers: args.buffers,
        // launch.json may give them as their command-line text
        load: (args.load as (string | LoadConfig)[] | undefined)?.map(toLoadConfig),
        dump: (args.dump as (string | DumpConfig)[] | undefined)?.map(toDumpConfig),
        memBytes: args.memBytes,
        stepBudget: args.stepBudget,
        includePaths: args.includePaths,
        dialect: args.dialect,
        pcore: args.pcore,
        stopOnEntry: !!args.stopOnEntry,
        trace: args.trace,
        cwd: args.cwd,
        overlay: args.overlay,
      };
    } catch (e) {
      this.sendErrorResponse(response, 1, (e as Error).message.replace(/[{}]/g, ''));
      return;
    }
    const sab = new SharedArrayBuffer(SHARED_INTS * 4);
    this.sh = new Int32Array(sab);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.launchResponse = response;
    this.port.on('message', (m: FromTarget) => this.fromTarget(m));
    try {
      this.target = await this.opts.spawn({ sab, port: port2, launch }, [port2]);
    } catch (e) {
      this.failLaunch(`cannot start the simulator: ${(e as Error).message}`);
      return;
    }
    this.target.on('error', (e) => {
      this.sendEvent(new OutputEvent(`simulator crashed: ${e.stack ?? e.message}\n`, 'stderr'));
      if (this.launchResponse) this.failLaunch(`simulator crashed: ${e.message}`);
      else this.end(1);
    });
    this.target.on('exit', () => {
      // what the worker posted just before it ended (a launch error) may still be queued on the port:
      // the exit event can overtake it, so read it first
      const port = this.port;
      for (let m = port && receiveMessageOnPort(port); m; m = port && receiveMessageOnPort(port)) this.fromTarget(m.message as FromTarget);
      if (this.launchResponse) this.failLaunch('the simulator stopped before the program started');
      else this.end(1);
    });
  }

  private failLaunch(message: string): void {
    const r = this.launchResponse;
    this.launchResponse = undefined;
    if (r) this.sendErrorResponse(r, 1, message);
    this.end(1, false);
  }

  private fromTarget(m: FromTarget): void {
    switch (m.t) {
      case 'ready': {
        const r = this.launchResponse;
        this.launchResponse = undefined;
        if (r) this.sendResponse(r);
        this.sendEvent(new InitializedEvent());
        return;
      }
      case 'launchError':
        this.failLaunch(m.message);
        return;
      case 'res': {
        const req = this.pending.get(m.seq);
        if (!req) return;
        this.pending.delete(m.seq);
        const r: DebugProtocol.Response = new Response(req);
        if (m.error !== undefined) this.sendErrorResponse(r, 1, m.error.replace(/[{}]/g, ''));
        else {
          if (m.body !== undefined) r.body = m.body;
          this.sendResponse(r);
        }
        return;
      }
      case 'event':
        this.sendEvent(new Event(m.event, m.body));
        return;
      case 'end':
        this.end(m.exitCode);
        return;
    }
  }

  /** The program has ended (or the target is gone): answer what is pending, report exit, stop the worker. */
  private end(exitCode: number, exited = true): void {
    if (this.ended) return;
    this.ended = true;
    for (const req of this.pending.values()) this.sendErrorResponse(new Response(req), 1, 'the program has ended');
    this.pending.clear();
    if (exited) this.sendEvent(new ExitedEvent(exitCode));
    this.sendEvent(new TerminatedEvent());
    this.kill();
  }

  private kill(): void {
    const t = this.target;
    this.target = undefined;
    if (t) void t.terminate();
    this.port?.close();
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = {
      threads: [
        { id: 1, name: 'pid 0' },
        { id: 2, name: 'pid 1' },
      ],
    };
    this.sendResponse(response);
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    if (this.sh && !this.ended) {
      Atomics.or(this.sh, CTL, PAUSE);
      Atomics.add(this.sh, WAKE, 1);
    }
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    this.end(1);
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.sendResponse(response);
    if (!this.ended) {
      this.ended = true;
      this.pending.clear();
      this.kill();
    }
    this.shutdown();
  }

  protected override customRequest(command: string, response: DebugProtocol.Response): void {
    this.sendErrorResponse(response, 1, `unknown request '${command}'`);
  }
}
