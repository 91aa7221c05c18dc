/**
 * Scanning a checkpoint on a walk: the rear camera reading its sticker, or
 * the short code typed from it, matched against the mirror's checkpoints
 * offline (src/domain/checkpointCode.ts; the server checks the same code
 * again). Once found: its instructions, its yes/no question, how far the
 * phone was ('Scanned 240 m from the checkpoint' is kept, never refused),
 * and 'Save scan', or 'Write report' to start a report about it.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { locateForReport } from '../../data/devicePosition.ts';
import type { Checkpoint } from '../../data/resources/tourBoards.ts';
import {
  matchScannedText,
  matchShortCode,
  normalizeShortCode,
  scanPlace,
  type ScanMethod,
  type ScanPlace,
} from '../../domain/checkpointCode.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import { TextArea, TextInput } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { placeWords, TOUR_WORDS } from './tourWords.ts';
import { nfcAvailable, readNfcTags } from './nfc.ts';
import type { QrScanner } from './qrScanner.ts';

export interface FoundCheckpoint {
  checkpoint: Checkpoint;
  method: ScanMethod;
  code: string;
}

export interface ScanToSave extends FoundCheckpoint {
  position: ReportPosition | null;
  answer: 'yes' | 'no' | '';
  note: string;
}

export function ScanSheet({
  mode,
  communityId,
  checkpoints,
  onTour,
  scannedAt,
  onClose,
  onSave,
}: {
  /** null: closed. */
  mode: 'camera' | 'code' | null;
  communityId: string;
  /** Every checkpoint of the community: a sticker of another tour is told apart from a made-up one. */
  checkpoints: readonly Checkpoint[];
  /** The ids of this tour's checkpoints. */
  onTour: ReadonlySet<string>;
  /** When each checkpoint was already scanned on this round (HH:MM), to say so. */
  scannedAt: ReadonlyMap<string, string>;
  onClose: () => void;
  onSave: (scan: ScanToSave) => Promise<void>;
}) {
  const [found, setFound] = useState<FoundCheckpoint | null>(null);
  const [method, setMethod] = useState(mode);
  // Opened again (or the other way): it starts afresh, in the way it was opened.
  const [openedAs, setOpenedAs] = useState(mode);
  if (mode !== openedAs) {
    setOpenedAs(mode);
    setFound(null);
    setMethod(mode);
  }
  const close = () => {
    setFound(null);
    onClose();
  };
  const title = found ? found.checkpoint.name : method === 'code' ? TOUR_WORDS.enterCode : TOUR_WORDS.scanCheckpoint;
  return (
    <Sheet open={mode !== null} onClose={close} title={title}>
      {mode !== null &&
        (found ? (
          <ScanDetails
            found={found}
            onTour={onTour.has(found.checkpoint.id)}
            scannedAt={scannedAt.get(found.checkpoint.id)}
            onSave={async (scan) => {
              await onSave(scan);
              close();
            }}
          />
        ) : method === 'code' ? (
          <CodeEntry communityId={communityId} checkpoints={checkpoints} onFound={setFound} />
        ) : (
          <CameraScan
            communityId={communityId}
            checkpoints={checkpoints}
            onFound={setFound}
            onEnterCode={() => setMethod('code')}
          />
        ))}
    </Sheet>
  );
}

function CameraScan({
  communityId,
  checkpoints,
  onFound,
  onEnterCode,
}: {
  communityId: string;
  checkpoints: readonly Checkpoint[];
  onFound: (found: FoundCheckpoint) => void;
  onEnterCode: () => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(true);
  // The latest list and callback, read by the scanner without restarting the camera.
  const latest = useRef({ checkpoints, onFound });
  useEffect(() => {
    latest.current = { checkpoints, onFound };
  });

  useEffect(() => {
    const abort = new AbortController();
    let scanner: QrScanner | null = null;
    void import('./qrScanner.ts').then(async ({ startQrScanner }) => {
      try {
        scanner = await startQrScanner(
          video.current!,
          (text) => {
            const match = matchScannedText(text, communityId, latest.current.checkpoints);
            if ('error' in match) setProblem(match.error);
            else {
              scanner?.stop();
              latest.current.onFound({ checkpoint: match.checkpoint, method: 'camera', code: text });
            }
          },
          { signal: abort.signal, onError: (error) => setProblem(error.message) },
        );
      } catch (error) {
        if (!abort.signal.aborted) setProblem((error as Error).message);
      } finally {
        if (!abort.signal.aborted) setStarting(false);
      }
    });
    // Where the phone reads NFC, a checkpoint's tag is a scan too (the camera keeps looking meanwhile).
    if (nfcAvailable())
      void readNfcTags(
        (text) => {
          const match = matchScannedText(text, communityId, latest.current.checkpoints);
          if ('error' in match) setProblem(match.error);
          else {
            scanner?.stop();
            latest.current.onFound({ checkpoint: match.checkpoint, method: 'nfc', code: text });
          }
        },
        (error) => setProblem(error.message),
        abort.signal,
      );
    return () => {
      abort.abort();
      scanner?.stop();
    };
  }, [communityId]);

  return (
    <div className="space-y-3">
      <div className="relative aspect-[4/3] overflow-hidden rounded-lg bg-black">
        <video ref={video} className="size-full object-cover" muted playsInline aria-label="Camera" />
        {starting && (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner label="Opening the camera" />
          </div>
        )}
      </div>
      <p className="text-sm text-gray-700">
        Point the camera at the checkpoint&apos;s code{nfcAvailable() ? ', or hold the phone to its NFC tag' : ''}.
      </p>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {problem}
        </p>
      )}
      <button
        type="button"
        onClick={onEnterCode}
        className="min-h-12 w-full rounded border border-gray-300 bg-white px-4 font-semibold hover:bg-gray-100"
      >
        {TOUR_WORDS.enterCode}
      </button>
    </div>
  );
}

function CodeEntry({
  communityId,
  checkpoints,
  onFound,
}: {
  communityId: string;
  checkpoints: readonly Checkpoint[];
  onFound: (found: FoundCheckpoint) => void;
}) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const match = matchShortCode(typed, communityId, checkpoints);
        if ('error' in match) setProblem(match.error);
        // Sent as stored ('K7M4QX'): what the officer typed around it (spaces, a dash) is not the code.
        else onFound({ checkpoint: match.checkpoint, method: 'code', code: normalizeShortCode(typed) });
      }}
    >
      <TextInput
        label="Code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="K7M-4QX"
        value={typed}
        error={problem}
        onChange={(event) => {
          setTyped(event.target.value);
          setProblem(undefined);
        }}
      />
      <button
        type="submit"
        className="min-h-12 w-full rounded bg-black px-4 font-semibold text-white hover:bg-gray-800"
      >
        Find checkpoint
      </button>
    </form>
  );
}

function ScanDetails({
  found,
  onTour,
  scannedAt,
  onSave,
}: {
  found: FoundCheckpoint;
  onTour: boolean;
  scannedAt: string | undefined;
  onSave: (scan: ScanToSave) => Promise<void>;
}) {
  const navigate = useNavigate();
  const { checkpoint } = found;
  const [position, setPosition] = useState<ReportPosition | null | undefined>(undefined);
  const [answer, setAnswer] = useState<'yes' | 'no' | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    // Where the phone is now: the scan keeps it, and says how far that is from the checkpoint.
    void locateForReport()(4_000).then((fix) => live && setPosition(fix));
    return () => {
      live = false;
    };
  }, [checkpoint.id]);

  const place: ScanPlace | null =
    position === undefined
      ? null
      : scanPlace(
          {
            latitude: checkpoint.position?.latitude ?? null,
            longitude: checkpoint.position?.longitude ?? null,
            radius: checkpoint.radius,
          },
          position,
        );

  /** Saves the scan; then, for 'Write report', opens a report that starts at this checkpoint. */
  async function save(thenReport: boolean) {
    if (checkpoint.question && !answer) {
      setProblem(TOUR_WORDS.answerRequired);
      return;
    }
    setBusy(true);
    try {
      await onSave({ ...found, position: position ?? null, answer, note });
    } catch (error) {
      // Not saved: the sheet stays open with what was entered, and says why.
      setProblem(errorMessage(error));
      return;
    } finally {
      setBusy(false);
    }
    if (thenReport) navigate('/reports/create', { state: { narrative: `At checkpoint ${checkpoint.name}: ` } });
  }

  return (
    <div className="space-y-4">
      {!onTour && (
        <p role="alert" className="rounded bg-red-50 p-3 text-sm font-medium text-red-900">
          {TOUR_WORDS.notOnTour}
        </p>
      )}
      {scannedAt && <p className="text-sm text-gray-700">Already scanned on this round at {scannedAt}.</p>}
      {checkpoint.instructions && <p className="rounded bg-amber-50 p-3 text-amber-950">{checkpoint.instructions}</p>}
      <p className="text-sm text-gray-700" aria-live="polite">
        {place === null ? 'Finding where you are…' : placeWords(place) || 'At the checkpoint'}
      </p>
      {checkpoint.question && (
        <fieldset>
          <legend className="font-medium">{checkpoint.question}</legend>
          <div className="mt-2 flex gap-3">
            {(['yes', 'no'] as const).map((value) => (
              <label
                key={value}
                className={`flex min-h-12 flex-1 items-center justify-center rounded border text-lg font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-black has-[:focus-visible]:ring-offset-2 ${answer === value ? 'border-black bg-black text-white' : 'border-gray-300 bg-white'}`}
              >
                <input
                  type="radio"
                  name="answer"
                  value={value}
                  className="sr-only"
                  checked={answer === value}
                  onChange={() => {
                    setAnswer(value);
                    setProblem(null);
                  }}
                />
                {value === 'yes' ? 'Yes' : 'No'}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <TextArea label="Note" rows={2} value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {problem}
        </p>
      )}
      <div className="flex flex-col gap-2">
        <button
          type="button"
          disabled={!onTour || busy}
          onClick={() => void save(false)}
          className="min-h-12 rounded bg-black px-4 text-lg font-semibold text-white hover:bg-gray-800 disabled:opacity-40"
        >
          {TOUR_WORDS.saveScan}
        </button>
        <button
          type="button"
          disabled={!onTour || busy}
          onClick={() => void save(true)}
          className="min-h-12 rounded border border-gray-300 bg-white px-4 font-semibold hover:bg-gray-100 disabled:opacity-40"
        >
          {TOUR_WORDS.writeReport}
        </button>
      </div>
    </div>
  );
}
