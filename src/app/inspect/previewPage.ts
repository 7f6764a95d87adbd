import { escapeHtml } from '../../inspector/html';

/**
 * The preview webview's page: a <video> of the preview file, and a script that asks the webview what it can play
 * (canPlayType; MediaSource) and posts the answer back, so the extension can say when it cannot.
 */
export function previewPageHtml(options: { cspSource: string; nonce: string; src: string; name: string }): string {
  const nonce = escapeHtml(options.nonce);
  const csp = [
    "default-src 'none'",
    `media-src ${options.cspSource}`,
    `style-src 'nonce-${options.nonce}'`,
    `script-src 'nonce-${options.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>Preview: ${escapeHtml(options.name)}</title>
<style nonce="${nonce}">body { margin: 0; padding: 8px; } video { max-width: 100%; max-height: 85vh; } #status { opacity: 0.8; }</style>
</head>
<body>
<video id="video" controls preload="metadata" src="${escapeHtml(options.src)}"></video>
<p id="status">Preview of ${escapeHtml(options.name)}: H.264 video and MP3 audio, made for this view.</p>
<script nonce="${nonce}">
(function () {
  var vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  var video = document.getElementById('video');
  var post = function (message) { if (vscode) vscode.postMessage(message); };
  post({
    type: 'canPlay',
    h264: video.canPlayType('video/mp4; codecs="avc1.4D401F"'),
    mp3: video.canPlayType('video/mp4; codecs="avc1.4D401F, mp4a.6B"') || video.canPlayType('audio/mpeg'),
    aac: video.canPlayType('video/mp4; codecs="avc1.4D401F, mp4a.40.2"'),
    mediaSource: typeof MediaSource !== 'undefined'
  });
  video.addEventListener('error', function () {
    var error = video.error;
    document.getElementById('status').textContent = 'This view cannot play the preview' + (error ? ' (media error ' + error.code + ')' : '') + '.';
    post({ type: 'playError', code: error ? error.code : 0 });
  });
})();
</script>
</body>
</html>
`;
}
