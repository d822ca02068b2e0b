import type { Command } from 'commander';
import { registerCheck } from './check.js';
import { registerDaemon } from './daemon.js';
import { registerExtend } from './extend.js';
import { registerGenerate } from './generate.js';
import { registerMail } from './mail.js';
import { registerNation } from './nation.js';
import { registerPause } from './pause.js';
import { registerReport } from './report.js';
import { registerRerun } from './rerun.js';
import { registerResume } from './resume.js';
import { registerRollback } from './rollback.js';
import { registerStatus } from './status.js';
import { registerTick } from './tick.js';
import { registerTurn } from './turn.js';

/** Every command, one file each. */
export function registerCommands(program: Command): void {
  registerTurn(program);
  registerReport(program);
  registerGenerate(program);
  registerCheck(program);
  registerMail(program);
  registerTick(program);
  registerDaemon(program);
  registerStatus(program);
  registerRerun(program);
  registerRollback(program);
  registerExtend(program);
  registerPause(program);
  registerResume(program);
  registerNation(program);
}
