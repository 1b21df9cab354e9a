// `npx tsx bench/assistant/replay-provider.ts <recording> [port]`: serves a recording of the
// assistant-model bench on 127.0.0.1 until stopped, and prints the settings that point the service
// at it (`dcledger serve` then answers the recorded questions as the model did, and refuses others).
import { readRecording } from '../assistant-model.js';
import { startReplayServer } from './provider-servers.js';

const [file, port] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/assistant/replay-provider.ts <recording.json> [port]');
  process.exit(2);
}
const recording = readRecording(file);
const server = await startReplayServer(recording, Number(port ?? 0));
const key = recording.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
console.log(
  [
    `replaying ${recording.exchanges.length} exchanges of ${recording.provider} ${recording.model} (${recording.questions.length} questions)`,
    `DCLEDGER_ASSISTANT_PROVIDER=${recording.provider} ${key}=replay DCLEDGER_ASSISTANT_MODEL=${recording.model} ` +
      `DCLEDGER_ASSISTANT_MAX_STEPS=${recording.max_steps} DCLEDGER_ASSISTANT_BASE_URL=${server.baseUrl}`,
  ].join('\n'),
);
process.on('SIGINT', () => {
  if (server.misses.length > 0)
    console.error(`${server.misses.length} requests not in the recording:\n${server.misses.join('\n')}`);
  void server.close().then(() => process.exit(server.misses.length > 0 ? 1 : 0));
});
