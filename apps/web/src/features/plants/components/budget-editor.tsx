import { useState } from 'react';
import Alert from 'antd/es/alert';
import Divider from 'antd/es/divider';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import {
  BUDGET_ENERGY_MAX_KWH,
  BUDGET_IRRADIATION_MAX_KWH_M2,
  BUDGET_YEAR_MAX,
  BUDGET_YEAR_MIN,
  type PlantBudgetBody,
} from '@solar/shared';
import { formatNumber } from '../../../lib/format';
import { monthName } from '../../../lib/intl';
import { usePlantBudget } from '../api/budgets';
import {
  bodyOf,
  draftOf,
  emptyYear,
  monthsMissingEnergy,
  totalOf,
  type MonthDraft,
  type YearDraft,
} from '../budget-model';
import './budget.css';

/**
 * The budget drafts of a plant form: the shown year and the years the user changed (only those are
 * saved, each replacing that year's stored months).
 */
export function useBudgetDrafts() {
  const [year, setYear] = useState(() => new Date().getFullYear());
  const [edited, setEdited] = useState<Record<number, YearDraft>>({});
  const [showErrors, setShowErrors] = useState(false);
  return {
    year,
    setYear,
    edited,
    setMonths: (y: number, draft: YearDraft) => setEdited((e) => ({ ...e, [y]: draft })),
    showErrors,
    /** The first edited year with a month lacking its energy (it is then shown), or null when all are valid. */
    check: (): number | null => {
      const bad = Object.entries(edited).find(([, d]) => monthsMissingEnergy(d).length > 0);
      if (!bad) return null;
      setShowErrors(true);
      setYear(Number(bad[0]));
      return Number(bad[0]);
    },
    /** Every edited year as a save body. */
    bodies: (): PlantBudgetBody[] => Object.entries(edited).map(([y, d]) => bodyOf(Number(y), d)),
  };
}
export type BudgetDrafts = ReturnType<typeof useBudgetDrafts>;

const YEARS = Array.from({ length: BUDGET_YEAR_MAX - BUDGET_YEAR_MIN + 1 }, (_, i) => BUDGET_YEAR_MIN + i);

/**
 * The plant form's budget section: a year, its twelve monthly P50 energies and budget irradiations, and
 * the yearly totals. `plantId` null: a plant being created (nothing stored yet).
 */
export function BudgetEditor({ plantId, drafts }: { plantId: number | null; drafts: BudgetDrafts }) {
  const { t, i18n } = useTranslation();
  const { year } = drafts;
  const stored = usePlantBudget(plantId, year);
  const loading = plantId !== null && stored.isPending;
  const months: YearDraft = drafts.edited[year] ?? (stored.data ? draftOf(stored.data.months) : emptyYear());
  const missing = new Set(drafts.showErrors ? monthsMissingEnergy(months) : []);
  const set = (index: number, patch: Partial<MonthDraft>) =>
    drafts.setMonths(
      year,
      months.map((m, i) => (i === index ? { ...m, ...patch } : m)),
    );
  const energyTotal = totalOf(months, 'energy_kwh');
  const irradiationTotal = totalOf(months, 'irradiation_kwh_m2');
  const num = (v: number | null) => (v === null ? '–' : formatNumber(v, i18n.language));
  const label = (i: number) => monthName(i, i18n.language, 'long');

  return (
    <section className="budget-editor" data-testid="budget-editor" aria-labelledby="budget-editor-title">
      <Divider titlePlacement="start" plain>
        <span id="budget-editor-title">{t('budgets.section')}</span>
      </Divider>
      <Typography.Paragraph type="secondary" className="budget-hint">
        {t('budgets.hint')}
      </Typography.Paragraph>
      <label className="budget-year">
        <span>{t('budgets.year')}</span>
        <Select<number>
          value={year}
          onChange={drafts.setYear}
          showSearch={{ optionFilterProp: 'label' }}
          options={YEARS.map((y) => ({ value: y, label: String(y) }))}
          className="budget-year-select"
          aria-label={t('budgets.year')}
          data-testid="budget-year"
        />
      </label>
      {stored.isError && (
        <Alert type="error" showIcon title={t('budgets.loadFailed')} className="budget-alert" />
      )}
      <div className="budget-grid" role="table" aria-busy={loading} data-testid="budget-grid">
        <div className="budget-row budget-head" role="row">
          <span role="columnheader">{t('budgets.month')}</span>
          <span role="columnheader">{t('budgets.energy_kwh')}</span>
          <span role="columnheader">{t('budgets.irradiation_kwh_m2')}</span>
        </div>
        {months.map((m, i) => (
          <div className="budget-row" role="row" key={i} data-testid={`budget-month-${i + 1}`}>
            <span role="rowheader" className="budget-month">
              {label(i)}
            </span>
            <span role="cell">
              <InputNumber<number>
                className="full-width"
                value={m.energy_kwh}
                min={0}
                max={BUDGET_ENERGY_MAX_KWH}
                disabled={loading}
                status={missing.has(i + 1) ? 'error' : ''}
                aria-invalid={missing.has(i + 1)}
                aria-label={`${label(i)} · ${t('budgets.energy_kwh')}`}
                onChange={(v) => set(i, { energy_kwh: v ?? null })}
                data-testid={`budget-energy-${i + 1}`}
              />
              {missing.has(i + 1) && (
                <span className="budget-error" role="alert">
                  {t('budgets.irradiationNeedsEnergy')}
                </span>
              )}
            </span>
            <span role="cell">
              <InputNumber<number>
                className="full-width"
                value={m.irradiation_kwh_m2}
                min={0}
                max={BUDGET_IRRADIATION_MAX_KWH_M2}
                disabled={loading}
                aria-label={`${label(i)} · ${t('budgets.irradiation_kwh_m2')}`}
                onChange={(v) => set(i, { irradiation_kwh_m2: v ?? null })}
                data-testid={`budget-irradiation-${i + 1}`}
              />
            </span>
          </div>
        ))}
        <div className="budget-row budget-total" role="row">
          <span role="rowheader">{t('budgets.total')}</span>
          <span role="cell" className="figure" data-testid="budget-total-energy">
            {num(energyTotal)}
            {energyTotal !== null && ' kWh'}
          </span>
          <span role="cell" className="figure" data-testid="budget-total-irradiation">
            {num(irradiationTotal)}
            {irradiationTotal !== null && ' kWh/m²'}
          </span>
        </div>
      </div>
    </section>
  );
}
