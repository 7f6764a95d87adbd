/** The account as a folder's state and the messages name it: its address without "/rest" or a trailing slash. */
export function accountAddress(baseUrl: string): string {
  return baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/rest$/, '');
}
