/**
 * A home's photo wherever it shows (the card, the Update Home form): the
 * server's thumbnail, the Blob still waiting in the outbox, or the stand-in
 * drawing when the home has none or its photo does not load (docs/product.md#home-cards-and-the-desk-table).
 */
import { useState } from 'react';
import type { HouseRecord } from '../../api/records.ts';
import { useFileToken, withFileToken } from '../../data/fileToken.ts';
import { usePendingFile } from '../../data/hooks.ts';
import { isPendingFileName } from '../../data/hooks.ts';
import { BlobImage } from '../../ui/BlobImage.tsx';
import { DEFAULT_HOME_IMAGE } from './homeImage.ts';

interface PhotoProps {
  address: string;
  className: string;
}

export function HomePhoto({
  house,
  imageUrl,
  ...photo
}: PhotoProps & { house: Pick<HouseRecord, 'id' | 'image'>; imageUrl: string | null }) {
  return isPendingFileName(house.image) ? (
    <PendingHomeImage houseId={house.id} {...photo} />
  ) : (
    <HomeImage src={imageUrl} {...photo} />
  );
}

function HomeImage({ src, ...photo }: PhotoProps & { src: string | null }) {
  return src === null ? <DefaultHomeImage className={photo.className} /> : <ServerHomeImage src={src} {...photo} />;
}

function DefaultHomeImage({ className }: { className: string }) {
  return <img src={DEFAULT_HOME_IMAGE} alt="" loading="lazy" width={400} height={300} className={className} />;
}

/**
 * The server's thumbnail of the home's image: a protected file, asked for
 * with the file token all images share (without one offline, where the
 * service worker's cache answers).
 */
function ServerHomeImage({ src, address, className }: PhotoProps & { src: string }) {
  const file = useFileToken();
  // Remember which URL failed, so a later, different one (a new image, or a
  // new token after a failure offline) is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  // Until the first token is here, an empty tile: without one the server would refuse.
  if (!file.settled) return <div aria-hidden="true" className={className} />;
  const url = withFileToken(src, file.token);
  if (url === failed) return <DefaultHomeImage className={className} />;
  return (
    <img
      key={url}
      src={url}
      alt={`Home at ${address}`}
      onError={() => setFailed(url)}
      loading="lazy"
      width={400}
      height={300}
      className={className}
    />
  );
}

/**
 * A photo added or changed on this device that the server has not stored
 * yet: shown from the outbox's Blob until the upload lands and the server's
 * file name replaces the mirror's 'pending-0'.
 */
function PendingHomeImage({ houseId, ...photo }: PhotoProps & { houseId: string }) {
  const blob = usePendingFile('houses', houseId, 'image');
  if (!blob) return <HomeImage src={null} {...photo} />;
  return (
    <BlobImage blob={blob} alt={`Home at ${photo.address}`} width={400} height={300} className={photo.className} />
  );
}
