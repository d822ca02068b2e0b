import { relative } from 'node:path';
import type { Command } from 'commander';
import { newCampaign } from '../../gm/new-campaign.js';
import { secretsPath } from '../../campaign/secrets.js';

export function registerNew(program: Command): void {
  program
    .command('new')
    .description('make a campaign folder from a commented template to fill in: nations, players\' addresses, the map, the schedule, mail settings')
    .argument('<folder>', 'the new campaign folder, e.g. campaigns/iron-coast (its name becomes the campaign\'s)')
    .option('--name <id>', 'the campaign\'s id, if not the folder\'s name (lower-case letters, digits, - and _)')
    .action(async (folder: string, opts: { name?: string }) => {
      const made = await newCampaign(folder, opts.name !== undefined ? { name: opts.name } : {});
      const shown = relative(process.cwd(), made.dir) || '.';
      console.log(`Made the campaign "${made.name}" in ${shown}/ (campaign.yaml, orders/, mail/inbox/, and a .gitignore keeping mail/ private).`);
      console.log('Next:');
      console.log(`  1. edit ${shown}/campaign.yaml: the nations, your players' addresses, the map, the schedule, the mail settings`);
      console.log(`  2. fatecraft status ${shown}     checks it and shows turn 1's deadline`);
      console.log(`  3. fatecraft start ${shown}      writes turn 0, issues the order tokens (into ${secretsPath(made.name)}), mails the starting reports`);
    });
}
