import type { ExecuteStep } from '../../ask/wizard';
import { definitionOf, type CreateChannelState } from './state';

/** liveCreateChannel with the answers; the new channel goes into the state. */
export const createStep: ExecuteStep<CreateChannelState> = {
  priority: 100,
  async execute(state, { signal }) {
    state.channel = await state.client.liveCreateChannel(definitionOf(state), { signal });
  },
};
