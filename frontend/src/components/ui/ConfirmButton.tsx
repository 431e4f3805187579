import { useState, type ReactNode } from "react";
import { Button, type ButtonVariant } from "@/components/ui/Button";
import { Dialog, DialogActions } from "@/components/ui/Dialog";

interface ConfirmButtonProps {
  /** The button's word, and the dialog's confirming button's ("Revoke"). */
  children: string;
  /** The dialog's heading: what is about to happen ("Revoke token ci?"). */
  title: ReactNode;
  /** What it does and what cannot be undone. */
  consequence: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  variant?: ButtonVariant;
}

/** A destructive action behind a confirmation dialog: nothing happens in one click. */
export function ConfirmButton({
  children,
  title,
  consequence,
  onConfirm,
  disabled,
  variant = "danger",
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" variant={variant} disabled={disabled} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title}>
        <p>{consequence}</p>
        <DialogActions>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {children}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
