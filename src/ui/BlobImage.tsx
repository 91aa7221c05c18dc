import { useCallback, type ImgHTMLAttributes } from 'react';

/**
 * An image of a local Blob (a photo still waiting in the outbox). Its
 * object URL is made when the element attaches and revoked when it detaches
 * or the Blob changes, so queued photos never leak their memory; a ref
 * callback keeps each URL's life tied to one element, Strict Mode included.
 */
export function BlobImage({ blob, ...props }: { blob: Blob } & Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'>) {
  const attach = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(blob);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return <img ref={attach} {...props} />;
}
