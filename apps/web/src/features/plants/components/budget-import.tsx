import { useRef, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { BudgetImportAnswer } from '@solar/shared';
import { errorMessageOf } from '../../../lib/api-errors';
import { saveBlob } from '../../../lib/download';
import { knownKey } from '../../../lib/i18n-keys';
import { ApiError } from '../../../lib/problem';
import { useImportBudgets } from '../api/budgets';
import { importProblemsOf, templateCsv } from '../budget-model';
import './budget.css';

/** What the last import answered: the rows stored, or why nothing was. */
type Outcome =
  { kind: 'imported'; answer: BudgetImportAnswer } | { kind: 'refused'; title: string; problems: string[] };

/** The file's bytes as base64 (what POST budgets/import takes), in chunks to spare the call stack. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The translated lines of a refused import: `Line 4, energy_kwh: Enter a valid number`, by line. */
function problemLines(error: unknown, t: TFunction): string[] {
  if (!(error instanceof ApiError)) return [];
  return importProblemsOf(error.problem.errors).map((p) =>
    p.line === 0
      ? t('budgets.unreadable')
      : p.messages
          .map((m) =>
            t('budgets.rowProblem', {
              line: p.line,
              column: p.column === 'header' ? t('budgets.headerRow') : p.column,
              message: t(knownKey(m, 'validation.invalidValue')),
            }),
          )
          .join(' · '),
  );
}

/**
 * The plant management page's budget import: a dialog that uploads a CSV or XLSX file to budgets/import
 * and shows the rows imported, or each bad row's line and reason (then nothing was imported). The
 * template holds a row per month for `plantIds` (the plants listed).
 */
export function BudgetImport({ plantIds }: { plantIds: readonly number[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useImportBudgets();

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const format = /\.xlsx$/i.test(file.name) ? 'xlsx' : /\.csv$/i.test(file.name) ? 'csv' : null;
    if (!format) {
      setOutcome({ kind: 'refused', title: t('budgets.wrongFileType'), problems: [] });
      return;
    }
    setOutcome(null);
    const content_base64 = await base64Of(file);
    upload.mutate(
      { format, content_base64 },
      {
        onSuccess: (answer) => setOutcome({ kind: 'imported', answer }),
        onError: (e) =>
          setOutcome({ kind: 'refused', title: errorMessageOf(e, t), problems: problemLines(e, t) }),
      },
    );
  };

  return (
    <>
      <Button
        icon={<UploadOutlined />}
        onClick={() => {
          setOutcome(null);
          setOpen(true);
        }}
        data-testid="budget-import-open"
      >
        {t('budgets.import')}
      </Button>
      <Modal
        open={open}
        title={t('budgets.importTitle')}
        onCancel={() => setOpen(false)}
        footer={
          <Button onClick={() => setOpen(false)} data-testid="budget-import-close">
            {t('budgets.close')}
          </Button>
        }
        destroyOnHidden
        data-testid="budget-import-dialog"
      >
        <Typography.Paragraph>{t('budgets.importHint')}</Typography.Paragraph>
        <div className="budget-import-actions">
          <input
            ref={input}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            hidden
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Cleared, so that choosing the same file again (after fixing it) imports again.
              e.target.value = '';
              void onFile(file);
            }}
            data-testid="budget-import-file"
          />
          <Button
            type="primary"
            icon={<UploadOutlined />}
            loading={upload.isPending}
            onClick={() => input.current?.click()}
            data-testid="budget-import-choose"
          >
            {t('budgets.chooseFile')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              saveBlob(
                new Blob([templateCsv(plantIds, new Date().getFullYear())], {
                  type: 'text/csv;charset=utf-8',
                }),
                `${t('budgets.templateFile')}.csv`,
              )
            }
            data-testid="budget-import-template"
          >
            {t('budgets.template')}
          </Button>
        </div>
        {outcome?.kind === 'imported' && (
          <Alert
            type="success"
            showIcon
            title={t('budgets.imported', {
              rows: outcome.answer.imported,
              plants: outcome.answer.plants,
            })}
            data-testid="budget-import-result"
          />
        )}
        {outcome?.kind === 'refused' && (
          <Alert
            type="error"
            showIcon
            title={outcome.title}
            description={
              <>
                {outcome.problems.length > 0 && (
                  <ul className="budget-import-problems" data-testid="budget-import-problems">
                    {outcome.problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                )}
                <span>{t('budgets.nothingImported')}</span>
              </>
            }
            data-testid="budget-import-error"
          />
        )}
      </Modal>
    </>
  );
}
