/**
 * Reads checkpoint stickers through the phone's rear camera: opens the
 * camera, shows it in a <video> the screen owns, and reports each QR text
 * it sees. Framework-free: the tour screen starts it when it opens and
 * stops it when it closes; what a text means is src/domain/checkpointCode.ts's.
 *
 * Two decoders, the better one available:
 * - the browser's BarcodeDetector (Android Chrome has it, backed by the
 *   system's own reader): fast, and given the whole frame;
 * - jsQR otherwise (desktop browsers, iOS Safari): frames drawn to a canvas
 *   no larger than DECODE_MAX_SIDE, a few times a second. Loaded with a
 *   dynamic import so its 130 kB (46 kB gzipped) stay out of the main
 *   bundle; the service worker precaches every chunk (vite.config.ts), so
 *   it loads offline too.
 * One decode at a time: the next waits for the previous one to end, so a
 * slow phone reads fewer frames instead of piling them up.
 *
 * Every failure to start is a CameraError whose message says what the
 * officer can do (CAMERA_MESSAGES); the screen shows it as it is.
 */

/** What each failure tells the officer: always with a way on (the short code under the sticker). */
export const CAMERA_MESSAGES = {
  refused: "Camera permission was refused. Allow the camera in the browser's settings, or use Enter code.",
  noCamera: 'This device has no camera the app can use. Use Enter code.',
  busy: 'The camera is being used by another app or could not start. Close other apps using it and try again, or use Enter code.',
  stopped: 'The camera stopped. Try again, or use Enter code.',
  noReader: 'The code reader could not be loaded. Reload the app, or use Enter code.',
} as const;

export type CameraProblem = keyof typeof CAMERA_MESSAGES;

/** A camera failure: `problem` for a screen that shows more than the message (a settings hint, a retry button). */
export class CameraError extends Error {
  readonly problem: CameraProblem;
  constructor(problem: CameraProblem, options?: { cause?: unknown }) {
    super(CAMERA_MESSAGES[problem], options);
    this.name = 'CameraError';
    this.problem = problem;
  }
}

export type QrDecoder = 'barcode-detector' | 'jsqr';

export interface QrScannerOptions {
  /** Milliseconds between the end of one decode and the start of the next (200: five a second at most). */
  intervalMs?: number;
  /** The same text seen again fires again only after it was out of sight this long (2,000 ms). */
  repeatAfterMs?: number;
  /** 'jsqr' skips BarcodeDetector even where it exists (to compare the two on a phone). */
  decoder?: 'auto' | 'jsqr';
  /** A failure after start: the camera was unplugged, revoked or taken by another app. The scanner is stopped. */
  onError?: (error: CameraError) => void;
  /** Aborting it while the camera opens releases the camera and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface QrScanner {
  /** Which decoder reads the frames. */
  readonly decoder: QrDecoder;
  /** Stops the camera's tracks and the decoding; idempotent. */
  stop(): void;
}

/**
 * jsQR reads a frame downscaled so its longer side is at most this: a
 * sticker at arm's length keeps modules of several pixels, and the work
 * stays the same whatever the camera's resolution (a 640 × 480 frame took
 * 12 to 33 ms in desktop Chromium on a busy two-core test machine; a phone is
 * slower, a full-HD frame about seven times the pixels).
 */
export const DECODE_MAX_SIDE = 640;

/** The size a frame is decoded at: its own when it fits within `maxSide`, else scaled down, proportions kept. */
export function decodeSize(
  width: number,
  height: number,
  maxSide: number = DECODE_MAX_SIDE,
): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

// BarcodeDetector is not in TypeScript's DOM library yet: what this module uses of it.
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorInstance {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats(): Promise<string[]>;
}

interface Decoder {
  kind: QrDecoder;
  /** The texts of the codes in the video's current frame (none when it has no frame yet). */
  decode(video: HTMLVideoElement): Promise<string[]>;
}

/** HTMLMediaElement.HAVE_CURRENT_DATA: a frame can be drawn. */
const HAVE_CURRENT_DATA = 2;
const hasFrame = (video: HTMLVideoElement) =>
  video.readyState >= HAVE_CURRENT_DATA && video.videoWidth > 0 && video.videoHeight > 0;

/** The browser's detector when it reads QR codes; null otherwise (desktop Linux Chromium has none; elsewhere it may list no formats). */
async function barcodeDetector(): Promise<Decoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const detector = new Detector({ formats: ['qr_code'] });
    return {
      kind: 'barcode-detector',
      decode: async (video) => {
        if (!hasFrame(video)) return [];
        return (await detector.detect(video)).map((code) => code.rawValue);
      },
    };
  } catch {
    return null;
  }
}

async function jsqrDecoder(): Promise<Decoder> {
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  // Read back every frame: the browser keeps the canvas in memory, not on the GPU.
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('No 2D canvas');
  return {
    kind: 'jsqr',
    decode: async (video) => {
      if (!hasFrame(video)) return [];
      const { width, height } = decodeSize(video.videoWidth, video.videoHeight);
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      context.drawImage(video, 0, 0, width, height);
      const pixels = context.getImageData(0, 0, width, height);
      // Stickers are printed dark on light: the inverted pass would double the work for nothing.
      const code = jsQR(pixels.data, width, height, { inversionAttempts: 'dontInvert' });
      return code?.data ? [code.data] : [];
    },
  };
}

/** What getUserMedia's rejection means for the officer. */
function cameraProblem(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
      return 'refused';
    // SecurityError: the document may not use a camera at all (a permissions policy), nothing the officer can allow.
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'SecurityError':
    case 'TypeError':
      return 'noCamera';
    default:
      // NotReadableError, AbortError and the unnamed: the camera exists but could not start.
      return 'busy';
  }
}

async function openRearCamera(): Promise<MediaStream> {
  // No mediaDevices: an insecure page (plain http other than localhost) or a browser without cameras.
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia || !window.isSecureContext)
    throw new CameraError('noCamera');
  try {
    // 'ideal': a phone gives its rear camera, a laptop its only one, instead of failing.
    return await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
  } catch (error) {
    throw new CameraError(cameraProblem(error), { cause: error });
  }
}

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());

/**
 * Opens the rear camera into `video` and calls `onText` with each QR text
 * it reads: once for a code held in view, and again only after the code
 * was out of sight for `repeatAfterMs` (so the screen gets one scan per
 * sticker, and a second deliberate scan of the same one later). Rejects
 * with a CameraError when the camera cannot be used.
 */
export async function startQrScanner(
  video: HTMLVideoElement,
  onText: (text: string) => void,
  options: QrScannerOptions = {},
): Promise<QrScanner> {
  const { intervalMs = 200, repeatAfterMs = 2_000, decoder: wanted = 'auto', onError, signal } = options;
  signal?.throwIfAborted();

  // The camera and the decoder together: jsQR's chunk loads while the officer answers the permission prompt.
  const [opened, made] = await Promise.allSettled([
    openRearCamera(),
    (async () => (wanted === 'auto' ? await barcodeDetector() : null) ?? (await jsqrDecoder()))(),
  ]);
  if (opened.status === 'rejected') throw opened.reason;
  const stream = opened.value;
  if (made.status === 'rejected') {
    stopTracks(stream);
    throw new CameraError('noReader', { cause: made.reason });
  }
  const decoder = made.value;

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When each text was last in sight. */
  const lastSeen = new Map<string, number>();

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    stopTracks(stream);
    if (video.srcObject === stream) video.srcObject = null;
  };

  try {
    signal?.throwIfAborted();
    video.muted = true;
    video.playsInline = true;
    // The attribute as well: without inline playback iOS Safari opens the video full screen over the app.
    video.setAttribute('playsinline', '');
    video.srcObject = stream;
    await video.play();
    signal?.throwIfAborted();
  } catch (error) {
    stop();
    if (signal?.aborted) throw signal.reason;
    throw new CameraError('busy', { cause: error });
  }
  signal?.addEventListener('abort', stop);

  for (const track of stream.getVideoTracks()) {
    track.addEventListener('ended', () => {
      if (stopped) return;
      stop();
      onError?.(new CameraError('stopped'));
    });
  }

  const seen = (texts: string[]) => {
    const now = performance.now();
    for (const text of texts) {
      const before = lastSeen.get(text);
      lastSeen.set(text, now);
      if (before === undefined || now - before > repeatAfterMs) onText(text);
    }
    for (const [text, at] of lastSeen) if (now - at > repeatAfterMs) lastSeen.delete(text);
  };

  const tick = async () => {
    let texts: string[] = [];
    try {
      texts = await decoder.decode(video);
    } catch {
      // A frame that could not be read (the video resizing, a detector hiccup): the next one will do.
    }
    // Stopped during the decode: the screen that stopped it wants no more texts.
    if (stopped) return;
    // The next decode is booked first, so a throwing onText cannot end the scanning.
    timer = setTimeout(() => void tick(), intervalMs);
    seen(texts);
  };
  // The first decode after the caller has the scanner: an onText that stops it must find it.
  timer = setTimeout(() => void tick(), 0);

  return { decoder: decoder.kind, stop };
}
