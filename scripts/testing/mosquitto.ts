import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export interface Broker {
  url: string;
  stop(): Promise<void>;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > deadline) reject(new Error(`mosquitto did not open port ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** A real Mosquitto broker on a free loopback port, anonymous access, no persistence. */
export async function startMosquitto(): Promise<Broker> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-mqtt-'));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'log_dest stderr', 'log_type error', ''].join('\n'),
  );
  const bin = ['/usr/sbin/mosquitto', 'mosquitto'].find(Boolean) as string;
  const child: ChildProcess = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port, 10_000),
      exited.then(() => {
        throw new Error(`mosquitto exited: ${stderr}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
