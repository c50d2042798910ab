import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from './error-message';

/**
 * The sending state every answer card shares (approval, question, host key, password): buttons disabled while the
 * answer travels, the error shown if it fails, both reset when a new card (another `key`) takes its place.
 */
export function useCardSend(key: string, onReset?: () => void): { sending: boolean; error: string; setError: (error: string) => void; send: (work: () => Promise<unknown>) => void } {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => {
    setSending(false);
    setError('');
    onReset?.();
  }, [key]);
  const send = (work: () => Promise<unknown>): void => {
    setSending(true);
    setError('');
    work().catch((failure: unknown) => {
      setSending(false);
      setError(errorMessage(failure));
    });
  };
  return { sending, error, setError, send };
}
